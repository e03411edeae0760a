/**
 * The settlement script: exactly once per request id (a settled marker with a TTL, also set when an
 * expired lease was charged its estimate), releases the reservation and slots, charges quota,
 * windows and account spend, stores the usage record and increments the daily aggregates, in one
 * EVALSHA against the namespace's slot.
 * KEYS: keyCounters, accountCounters, inFlight, inFlightData, settledMarker, records, recordData,
 * keyRecords, keyDaily, accountDaily, aggregateIndex, inFlightCharge.
 * ARGV: base, requestId, cost, now, markerTtlMs, recordTime, recordJson, model, keyUid, day, then one
 * value per AGGREGATE_METRICS entry.
 * Reply: 1 when applied, 0 when the request id was settled (or charged) before.
 */
import { LUA_RELEASE_AND_PURGE } from './lua-shared-functions.js';

export const SETTLEMENT_KEY_COUNT = 12;

export const SETTLEMENT_LUA = `
${LUA_RELEASE_AND_PURGE}
local inFlight, inFlightData, settledMarker, inFlightCharge = KEYS[3], KEYS[4], KEYS[5], KEYS[12]
local base, requestId, now = ARGV[1], ARGV[2], tonumber(ARGV[4])

if not redis.call('SET', settledMarker, '1', 'NX', 'PX', ARGV[5]) then return 0 end

local entry = redis.call('HGET', inFlightData, requestId)
if entry then
  releaseEntry(base, entry)
  redis.call('HDEL', inFlightData, requestId)
end
redis.call('HDEL', inFlightCharge, requestId)
redis.call('ZREM', inFlight, requestId)

local increments = {}
for index = 11, #ARGV do table.insert(increments, ARGV[index]) end
chargeCost(base, {
  keyUid = ARGV[9], cost = ARGV[3], now = now, recordTime = ARGV[6], recordJson = ARGV[7],
  requestId = requestId, model = ARGV[8], day = ARGV[10], increments = increments,
})
return 1
`;
