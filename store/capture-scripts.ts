/**
 * The capture hand-off on Redis (docs/store.md "Captured bodies"): one stream, `{captures}:stream`,
 * each entry the capture's JSON in the field `capture`, and beside it `{captures}:bytes`, the
 * bytes of JSON the stream holds. The hand-off trims the stream to both bounds in the same script
 * call, so the queue never grows past them and the drops are counted; the acknowledgement deletes
 * and takes the entries' bytes off the count.
 */

/**
 * KEYS: stream, byte count. ARGV: field, capture JSON, count bound, byte bound. Appends the entry,
 * then drops the oldest, one by one, while the stream is over either bound (the entry just added
 * is always kept), and returns how many it dropped. A stream left with the new entry alone holds
 * exactly its bytes (a count that drifted is set right there).
 */
export const HAND_OFF_CAPTURE_LUA = `
local field = ARGV[1]
local size = string.len(ARGV[2])
local countBound = tonumber(ARGV[3])
local byteBound = tonumber(ARGV[4])
redis.call('XADD', KEYS[1], '*', field, ARGV[2])
local bytes = redis.call('INCRBY', KEYS[2], size)
local length = redis.call('XLEN', KEYS[1])
if length <= countBound and bytes <= byteBound then return 0 end
local dropped = 0
while length > 1 and (length > countBound or bytes > byteBound) do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  if oldest == nil then break end
  local fields = oldest[2]
  for index = 1, #fields, 2 do
    if fields[index] == field then bytes = bytes - string.len(fields[index + 1]) end
  end
  redis.call('XDEL', KEYS[1], oldest[1])
  length = length - 1
  dropped = dropped + 1
end
if length <= 1 or bytes < size then bytes = size end
redis.call('SET', KEYS[2], string.format('%d', bytes))
return dropped
`;

/**
 * KEYS: stream, byte count. ARGV: field, ids. Deletes the entries and takes their bytes off the
 * count (an empty stream holds none: the count goes with it); returns how many it deleted.
 */
export const ACK_CAPTURES_LUA = `
local field = ARGV[1]
local freed = 0
local deleted = 0
for index = 2, #ARGV do
  local entry = redis.call('XRANGE', KEYS[1], ARGV[index], ARGV[index])[1]
  if entry ~= nil then
    local fields = entry[2]
    for at = 1, #fields, 2 do
      if fields[at] == field then freed = freed + string.len(fields[at + 1]) end
    end
    deleted = deleted + redis.call('XDEL', KEYS[1], entry[1])
  end
end
if redis.call('XLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
elseif freed > 0 and redis.call('DECRBY', KEYS[2], string.format('%d', freed)) < 0 then
  redis.call('SET', KEYS[2], 0)
end
return deleted
`;
