/**
 * The scripts of the counter restore (the recorder's side, never the hot path): where a namespace's
 * usage stream stands, and writing the counters rebuilt from the ledger back with the `present`
 * marker, only if no record was appended since the ledger was read.
 */
import { LUA_WINDOWS } from './lua-shared-functions.js';
import { LUA_COUNTERS_WHOLE } from './counters-whole.js';
import { COUNTERS_LOST_FIELD, COUNTERS_PRESENT_FIELD } from './redis-key-names.js';
import { MEMBER_COUNTER_FIELDS, PLAN_COUNTER_FIELDS } from './budget-lua.js';

const luaList = (names: readonly string[]) => names.map((name) => `'${name}'`).join(', ');

/** Values per key in the restore script's ARGV: used, lastUsed, resetToken, then used/end per window. */
export const RESTORE_VALUES_PER_KEY = 3;

const LUA_STREAM_POSITION = `
local function streamPosition(stream)
  if redis.call('EXISTS', stream) == 0 then return 0, '0-0' end
  local info = redis.call('XINFO', 'STREAM', stream)
  local lastId = '0-0'
  for index = 1, #info, 2 do
    if info[index] == 'last-generated-id' then lastId = info[index + 1] end
  end
  return redis.call('XLEN', stream), lastId
end
`;

/** KEYS: usageStream. Reply: {waiting, lastId}. */
export const USAGE_STREAM_POSITION_LUA = `
${LUA_STREAM_POSITION}
local waiting, lastId = streamPosition(KEYS[1])
return {waiting, lastId}
`;

/**
 * KEYS: accountCounters, usageStream, the counters hash of each key restored, then the member
 * counters of each owner restored (budget-lua.ts).
 * ARGV: expected lastId, account spent, then per key: used, lastUsed ('' = none), resetToken
 * ('' = none), then per window used and end ('' '' = none); then, with budgets, the plan fields'
 * values in PLAN_COUNTER_FIELDS order and per owner its windows' values (MEMBER_COUNTER_FIELDS
 * without `reserved`); last, the owners' count ('-1' = no budgets: the plan fields are left).
 * Reply: 'present' (counters of a release before the marker are marked whole here, never
 * overwritten), 'moved' or 'restored'.
 */
export const RESTORE_COUNTERS_LUA = `
${LUA_WINDOWS}
${LUA_STREAM_POSITION}
${LUA_COUNTERS_WHOLE}
local marks = redis.call('HMGET', KEYS[1], '${COUNTERS_PRESENT_FIELD}', 'spent', '${COUNTERS_LOST_FIELD}')
if countersWhole(marks[1], marks[2], marks[3]) then
  if not marks[1] then redis.call('HSET', KEYS[1], '${COUNTERS_PRESENT_FIELD}', '1') end
  return 'present'
end
local waiting, lastId = streamPosition(KEYS[2])
if waiting > 0 or lastId ~= ARGV[1] then return 'moved' end

local memberCount = tonumber(ARGV[#ARGV])
local keyCount = #KEYS - 2 - math.max(memberCount, 0)
local perKey = ${RESTORE_VALUES_PER_KEY} + 2 * #windows

-- Sets the fields with a value, removes those given as ''.
local function writeFields(key, fields, at)
  local changes, removed = {}, {}
  for offset, field in ipairs(fields) do
    local value = ARGV[at + offset - 1]
    if value == '' then table.insert(removed, field) else
      table.insert(changes, field)
      table.insert(changes, value)
    end
  end
  if #changes > 0 then redis.call('HSET', key, unpack(changes)) end
  if #removed > 0 then redis.call('HDEL', key, unpack(removed)) end
end

if memberCount >= 0 then
  local planFields = {${luaList(PLAN_COUNTER_FIELDS)}}
  local memberFields = {${luaList(MEMBER_COUNTER_FIELDS.slice(1))}}
  local at = 3 + keyCount * perKey
  writeFields(KEYS[1], planFields, at)
  at = at + #planFields
  for member = 1, memberCount do
    writeFields(KEYS[2 + keyCount + member], memberFields, at)
    at = at + #memberFields
  end
end

for index = 3, 2 + keyCount do
  local at = 3 + (index - 3) * perKey
  local changes, removed = {'used', ARGV[at]}, {}
  local optional = {{'lastUsed', ARGV[at + 1]}, {'resetToken', ARGV[at + 2]}}
  for windowIndex, window in ipairs(windows) do
    local used, ends = ARGV[at + 1 + windowIndex * 2], ARGV[at + 2 + windowIndex * 2]
    table.insert(optional, {window[1] .. ':used', used})
    table.insert(optional, {window[1] .. ':end', ends})
  end
  for _, field in ipairs(optional) do
    if field[2] == '' then
      table.insert(removed, field[1])
    else
      table.insert(changes, field[1])
      table.insert(changes, field[2])
    end
  end
  redis.call('HSET', KEYS[index], unpack(changes))
  if #removed > 0 then redis.call('HDEL', KEYS[index], unpack(removed)) end
end
redis.call('HSET', KEYS[1], 'spent', ARGV[2], '${COUNTERS_PRESENT_FIELD}', '1')
redis.call('HDEL', KEYS[1], '${COUNTERS_LOST_FIELD}')
return 'restored'
`;
