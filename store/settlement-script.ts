/**
 * The settlement script: exactly once per request id (a settled marker with a TTL, also set when an
 * expired lease was charged its estimate), releases the reservation and slots, charges quota,
 * windows and account spend, and appends the usage record to the namespace's stream, in one
 * EVALSHA against the namespace's slot. No record or aggregate is kept in Redis: the recorder
 * drains the stream into the ledger.
 * KEYS: keyCounters, accountCounters, inFlight, inFlightData, settledMarker, inFlightCharge,
 * usageStream.
 * ARGV: base, requestId, cost, now, markerTtlMs, recordJson (with chargedAt = now), keyUid.
 * Reply: 1 when applied, 0 when the request id was settled (or charged) before.
 */
import { LUA_RELEASE_AND_PURGE } from './lua-shared-functions.js';

export const SETTLEMENT_KEY_COUNT = 7;

export const SETTLEMENT_LUA = `
${LUA_RELEASE_AND_PURGE}
local inFlight, inFlightData, settledMarker, inFlightCharge = KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local base, requestId, now = ARGV[1], ARGV[2], tonumber(ARGV[4])

if not redis.call('SET', settledMarker, '1', 'NX', 'PX', ARGV[5]) then return 0 end

local entry = redis.call('HGET', inFlightData, requestId)
if entry then
  releaseEntry(base, entry)
  redis.call('HDEL', inFlightData, requestId)
end
redis.call('HDEL', inFlightCharge, requestId)
redis.call('ZREM', inFlight, requestId)

chargeCost(base, { keyUid = ARGV[7], cost = ARGV[3], now = now, recordJson = ARGV[6] })
return 1
`;
