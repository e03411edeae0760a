/**
 * Lua shared by the scripts: the window table and the lazy purge of expired leases. A request in
 * flight is one member of the namespace's `inflight` ZSET (score = lease end) plus
 * `inflight:data[requestId] = keyUid TAB estimateNano`; the key's counters hold `reserved` and
 * `inflight` (its slot count), the account counters hold `reserved`. Purging an expired member
 * gives all three back, so a gateway that died leaks nothing.
 */
import { WINDOWS } from './store.js';

export const LUA_WINDOWS = `local windows = {${WINDOWS.map(
  (window) => `{'${window.name}', ${window.durationMs}}`,
).join(', ')}}`;

export const LUA_RELEASE_AND_PURGE = `
-- Integers are passed to Redis as text: a Lua number such as -0 or 1e+15 is not an integer to Redis.
local function int(value)
  return string.format('%d', value)
end

local function releaseEntry(base, accountCounters, entry)
  local sep = string.find(entry, '\\t', 1, true)
  local keyUid = string.sub(entry, 1, sep - 1)
  local estimate = tonumber(string.sub(entry, sep + 1))
  local keyCounters = base .. 'kc:' .. keyUid
  if redis.call('EXISTS', keyCounters) == 1 then
    redis.call('HINCRBY', keyCounters, 'reserved', int(-estimate))
    redis.call('HINCRBY', keyCounters, 'inflight', -1)
  end
  redis.call('HINCRBY', accountCounters, 'reserved', int(-estimate))
end

local function purgeExpired(base, accountCounters, inFlight, inFlightData, now)
  local expired = redis.call('ZRANGEBYSCORE', inFlight, '-inf', now)
  for _, requestId in ipairs(expired) do
    local entry = redis.call('HGET', inFlightData, requestId)
    if entry then
      releaseEntry(base, accountCounters, entry)
      redis.call('HDEL', inFlightData, requestId)
    end
    redis.call('ZREM', inFlight, requestId)
  end
end

local function num(value)
  if value then return tonumber(value) or 0 end
  return 0
end
`;
