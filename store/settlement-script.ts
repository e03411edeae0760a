/**
 * The settlement script: exactly once per request id (a settled marker with a TTL, also set when an
 * expired lease was charged its estimate), releases the reservation and slots, charges quota,
 * windows and account spend, and appends the usage record to the namespace's stream, in one
 * script call (FCALL) against the namespace's slot; it starts from the shared Lua
 * (LUA_SCRIPT_PRELUDE). No record or aggregate is kept in Redis: the recorder drains the stream
 * into the ledger. Ten commands run inside (lua-shared-functions.ts' chargeCost releases and
 * charges the key's counters with one HMGET and one HSET).
 * KEYS: keyCounters, accountCounters, inFlight, inFlightData, settledMarker, inFlightCharge,
 * usageStream.
 * ARGV: base, requestId, cost, now, markerTtlMs (settled-markers.ts), recordJson (with chargedAt =
 * now), keyUid, budget ('' for none: planFlag TAB dayEnd TAB weekEnd TAB monthEnd TAB owner,
 * budget-lua.ts).
 * Reply: 1 when applied, 0 when the request id was settled (or charged) before.
 */
import { PROGRESS_FIELD_SUFFIX } from './encode-lease-charge.js';

export const SETTLEMENT_KEY_COUNT = 7;

export const SETTLEMENT_LUA = `
local inFlight, inFlightData, settledMarker, inFlightCharge = KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local base, requestId, now = ARGV[1], ARGV[2], tonumber(ARGV[4])

if not redis.call('SET', settledMarker, '1', 'NX', 'PX', ARGV[5]) then return 0 end

-- The reservation is given back in the charge's own read and write of the key's counters (a
-- reservation held for another key than the one charged is released on its own).
-- The owner's reservation likewise, in the charge of the owner's windows, when the settlement
-- charges the owner the admission reserved for.
local budget = nil
if ARGV[8] and ARGV[8] ~= '' then budget = parseBudget(ARGV[8]) end
local entry = redis.call('HGET', inFlightData, requestId)
local release, budgetRelease = nil, nil
if entry then
  local keyUid, estimate, reservedBudget = parseEntry(entry)
  local ownerReserved = reservedBudget and reservedBudget.owner ~= ''
  if keyUid == ARGV[7] and (not ownerReserved or (budget and budget.owner == reservedBudget.owner)) then
    release = estimate
    if ownerReserved then budgetRelease = estimate end
  else
    releaseEntry(base, entry)
  end
  redis.call('HDEL', inFlightData, requestId)
end
redis.call('HDEL', inFlightCharge, requestId, requestId .. '${PROGRESS_FIELD_SUFFIX}')
redis.call('ZREM', inFlight, requestId)

chargeCost(base, {
  keyUid = ARGV[7], cost = ARGV[3], now = now, recordJson = ARGV[6], release = release,
  budget = budget, budgetRelease = budgetRelease,
})
return 1
`;
