/**
 * The settlement script: exactly once per request id (a settled marker with a TTL), releases the
 * reservation and slots, charges quota, windows and account spend, stores the usage record and
 * increments the daily aggregates, in one EVALSHA against the namespace's slot.
 * KEYS: keyCounters, accountCounters, inFlight, inFlightData, settledMarker, records, recordData,
 * keyRecords, keyDaily, accountDaily, aggregateIndex.
 * ARGV: base, requestId, cost, now, markerTtlMs, recordTime, recordJson, model, keyDailySuffix,
 * accountDailySuffix, then one value per AGGREGATE_METRICS entry.
 * Reply: 1 when applied, 0 when the request id was settled before.
 */
import { AGGREGATE_METRICS } from './aggregate-metrics.js';
import { LUA_RELEASE_AND_PURGE, LUA_WINDOWS } from './lua-shared-functions.js';

export const SETTLEMENT_KEY_COUNT = 11;

export const SETTLEMENT_LUA = `
${LUA_WINDOWS}
${LUA_RELEASE_AND_PURGE}
local metrics = {${AGGREGATE_METRICS.map((metric) => `'${metric}'`).join(', ')}}
local keyCounters, accountCounters, inFlight, inFlightData, settledMarker =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local records, recordData, keyRecords, keyDaily, accountDaily, aggregateIndex =
  KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11]
local base, requestId, cost, now = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local recordTime, model = ARGV[6], ARGV[8]

if not redis.call('SET', settledMarker, '1', 'NX', 'PX', ARGV[5]) then return 0 end

local entry = redis.call('HGET', inFlightData, requestId)
if entry then
  releaseEntry(base, accountCounters, entry)
  redis.call('HDEL', inFlightData, requestId)
end
redis.call('ZREM', inFlight, requestId)

redis.call('HINCRBY', keyCounters, 'used', ARGV[3])
for _, window in ipairs(windows) do
  local usedField, endField = window[1] .. ':used', window[1] .. ':end'
  local windowEnd = num(redis.call('HGET', keyCounters, endField))
  if windowEnd > now then
    redis.call('HINCRBY', keyCounters, usedField, ARGV[3])
  elseif cost > 0 then
    redis.call('HSET', keyCounters, usedField, ARGV[3], endField, int(now + window[2]))
  end
end
redis.call('HSET', keyCounters, 'lastUsed', ARGV[4])
redis.call('HINCRBY', accountCounters, 'spent', ARGV[3])

redis.call('ZADD', records, recordTime, requestId)
redis.call('HSET', recordData, requestId, ARGV[7])
redis.call('ZADD', keyRecords, recordTime, requestId)

for index, metric in ipairs(metrics) do
  local field = model .. '\\t' .. metric
  redis.call('HINCRBY', keyDaily, field, ARGV[10 + index])
  redis.call('HINCRBY', accountDaily, field, ARGV[10 + index])
end
redis.call('ZADD', aggregateIndex, 'GT', recordTime, ARGV[9])
redis.call('ZADD', aggregateIndex, 'GT', recordTime, ARGV[10])
return 1
`;
