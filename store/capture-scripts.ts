/**
 * The capture hand-off on Redis (docs/store.md "Captured bodies"): one stream, `{captures}:stream`,
 * each entry the capture's JSON in the field `capture`; beside it `{captures}:sizes`, each entry's
 * bytes by its id, and `{captures}:bytes`, their sum. The hand-off trims the stream to both bounds
 * in the same script call, so the queue never grows past them and the drops are counted; the
 * acknowledgement deletes entries and takes their bytes off the sum without reading their bodies.
 */

/**
 * KEYS: stream, byte sum, sizes. ARGV: field, capture JSON, count bound, byte bound. Appends the
 * entry, then drops the oldest, one by one, while the stream is over either bound (the entry just
 * added is always kept), and returns how many it dropped. A stream left with the new entry alone
 * holds exactly its bytes (a sum that drifted is set right there).
 */
export const HAND_OFF_CAPTURE_LUA = `
local size = string.len(ARGV[2])
local countBound = tonumber(ARGV[3])
local byteBound = tonumber(ARGV[4])
local id = redis.call('XADD', KEYS[1], '*', ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], id, size)
local bytes = redis.call('INCRBY', KEYS[2], size)
local length = redis.call('XLEN', KEYS[1])
if length <= countBound and bytes <= byteBound then return 0 end
local dropped = 0
while length > 1 and (length > countBound or bytes > byteBound) do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  if oldest == nil then break end
  bytes = bytes - (tonumber(redis.call('HGET', KEYS[3], oldest[1])) or 0)
  redis.call('HDEL', KEYS[3], oldest[1])
  redis.call('XDEL', KEYS[1], oldest[1])
  length = length - 1
  dropped = dropped + 1
end
if length <= 1 or bytes < size then bytes = size end
redis.call('SET', KEYS[2], string.format('%d', bytes))
return dropped
`;

/**
 * KEYS: stream, byte sum, sizes. ARGV: ids. Deletes the entries and takes their bytes off the sum
 * (an empty stream holds none: the sum and the sizes go with it); returns how many it deleted.
 */
export const ACK_CAPTURES_LUA = `
local freed = 0
for _, size in ipairs(redis.call('HMGET', KEYS[3], unpack(ARGV))) do
  freed = freed + (tonumber(size) or 0)
end
redis.call('HDEL', KEYS[3], unpack(ARGV))
local deleted = redis.call('XDEL', KEYS[1], unpack(ARGV))
if redis.call('XLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2], KEYS[3])
elseif freed > 0 and redis.call('DECRBY', KEYS[2], string.format('%d', freed)) < 0 then
  redis.call('SET', KEYS[2], 0)
end
return deleted
`;
