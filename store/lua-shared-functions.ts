/**
 * Lua shared by the scripts: the window table, charging a settled cost, and the lazy handling of
 * expired leases. A request in flight is one member of the namespace's `inflight` ZSET (score =
 * lease end) plus `inflight:data[requestId] = keyUid TAB estimateNano`, and, when the gateway
 * prepared one, `inflight:charge[requestId]` = the estimated usage record to write if the lease ends
 * unsettled. The key's counters hold `reserved` and `inflight` (its slot count), the account
 * counters hold `reserved`. An expired member gives all three back and is charged its estimate
 * once (settled marker), so a gateway that died neither leaks a slot nor makes the call free.
 *
 * Every name is built from the namespace's `base`, so each function works inside any script of the
 * namespace's slot.
 */
import { AGGREGATE_METRICS } from './aggregate-metrics.js';
import { WINDOWS } from './store.js';

export const LUA_WINDOWS = `local windows = {${WINDOWS.map(
  (window) => `{'${window.name}', ${window.durationMs}}`,
).join(', ')}}`;

/** Aggregate metrics whose increments a lease charge carries (durationMs is known only then). */
export const LEASE_CHARGE_METRICS = AGGREGATE_METRICS.filter(
  (metric) => metric !== 'durationMs' && metric !== 'requests',
);

export const LUA_RELEASE_AND_PURGE = `
${LUA_WINDOWS}
-- Integers are passed to Redis as text: a Lua number such as -0 or 1e+15 is not an integer to Redis.
local function int(value)
  return string.format('%d', value)
end

local function num(value)
  if value then return tonumber(value) or 0 end
  return 0
end

local aggregateMetrics = {${AGGREGATE_METRICS.map((metric) => `'${metric}'`).join(', ')}}

-- Splits text on TAB into count fields; the last field keeps any further TABs.
local function splitTabs(text, count)
  local fields, start = {}, 1
  for _ = 1, count - 1 do
    local sep = string.find(text, '\\t', start, true)
    if not sep then return nil end
    table.insert(fields, string.sub(text, start, sep - 1))
    start = sep + 1
  end
  table.insert(fields, string.sub(text, start))
  return fields
end

local function releaseEntry(base, entry)
  local fields = splitTabs(entry, 2)
  local keyCounters = base .. 'kc:' .. fields[1]
  local estimate = tonumber(fields[2])
  if redis.call('EXISTS', keyCounters) == 1 then
    redis.call('HINCRBY', keyCounters, 'reserved', int(-estimate))
    redis.call('HINCRBY', keyCounters, 'inflight', -1)
  end
  redis.call('HINCRBY', base .. 'ac', 'reserved', int(-estimate))
end

-- Charges a settled cost: quota, windows, account spend, the record and the daily aggregates.
-- c: keyUid, cost (text), now, recordTime, recordJson, requestId, model, day, increments (texts in
-- aggregateMetrics order).
local function chargeCost(base, c)
  local keyCounters = base .. 'kc:' .. c.keyUid
  local cost = tonumber(c.cost)
  redis.call('HINCRBY', keyCounters, 'used', c.cost)
  for _, window in ipairs(windows) do
    local usedField, endField = window[1] .. ':used', window[1] .. ':end'
    local windowEnd = num(redis.call('HGET', keyCounters, endField))
    if windowEnd > c.now then
      redis.call('HINCRBY', keyCounters, usedField, c.cost)
    elseif cost > 0 then
      redis.call('HSET', keyCounters, usedField, c.cost, endField, int(c.now + window[2]))
    end
  end
  redis.call('HSET', keyCounters, 'lastUsed', int(c.now))
  redis.call('HINCRBY', base .. 'ac', 'spent', c.cost)

  redis.call('ZADD', base .. 'rec', c.recordTime, c.requestId)
  redis.call('HSET', base .. 'rec:data', c.requestId, c.recordJson)
  redis.call('ZADD', base .. 'rec:k:' .. c.keyUid, c.recordTime, c.requestId)

  local keyDaily = 'kd:' .. c.keyUid .. ':' .. c.day
  local accountDaily = 'ad:' .. c.day
  for index, metric in ipairs(aggregateMetrics) do
    local field = c.model .. '\\t' .. metric
    redis.call('HINCRBY', base .. keyDaily, field, c.increments[index])
    redis.call('HINCRBY', base .. accountDaily, field, c.increments[index])
  end
  redis.call('ZADD', base .. 'agg:index', 'GT', c.recordTime, keyDaily)
  redis.call('ZADD', base .. 'agg:index', 'GT', c.recordTime, accountDaily)
end

-- The estimated charge of a lease that ended unsettled, once per request id. The charge entry is
-- accountUid TAB day TAB recordTime TAB increments (comma separated, LEASE_CHARGE_METRICS order)
-- TAB record JSON without its closing brace TAB model.
local function chargeExpired(base, requestId, entry, leaseEnd, now, markerTtl)
  local charge = redis.call('HGET', base .. 'inflight:charge', requestId)
  if not charge then return 0 end
  redis.call('HDEL', base .. 'inflight:charge', requestId)
  if not redis.call('SET', base .. 'settled:' .. requestId, '1', 'NX', 'PX', markerTtl) then
    return 0
  end
  local reserved = splitTabs(entry, 2)
  local fields = splitTabs(charge, 6)
  local recordTime = tonumber(fields[3])
  local duration = int(math.max(0, leaseEnd - recordTime))
  local increments = {'1'}
  for value in string.gmatch(fields[4], '[^,]+') do table.insert(increments, value) end
  table.insert(increments, duration)
  chargeCost(base, {
    keyUid = reserved[1], cost = reserved[2], now = now, recordTime = fields[3],
    recordJson = fields[5] .. ',"accountUid":' .. cjson.encode(fields[1]) ..
      ',"durationMs":' .. duration .. '}',
    requestId = requestId, model = fields[6], day = fields[2], increments = increments,
  })
  return 1
end

-- Releases every lease that ended by now and charges its estimate; returns how many were charged.
local function purgeExpired(base, now, markerTtl)
  local inFlight, inFlightData = base .. 'inflight', base .. 'inflight:data'
  local expired = redis.call('ZRANGEBYSCORE', inFlight, '-inf', now, 'WITHSCORES')
  local charged = 0
  for index = 1, #expired, 2 do
    local requestId, leaseEnd = expired[index], tonumber(expired[index + 1])
    local entry = redis.call('HGET', inFlightData, requestId)
    if entry then
      releaseEntry(base, entry)
      redis.call('HDEL', inFlightData, requestId)
      charged = charged + chargeExpired(base, requestId, entry, leaseEnd, now, markerTtl)
    end
    redis.call('HDEL', base .. 'inflight:charge', requestId)
    redis.call('ZREM', inFlight, requestId)
  end
  return charged
end
`;
