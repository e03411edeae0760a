/**
 * The admission script: every check in the contract's order, then the reservation and both
 * concurrency slots, in one EVALSHA against the namespace's slot.
 * Expired leases of the namespace are charged first (lua-shared-functions.ts). A namespace with an
 * Account whose counters are not whole (counters-whole.ts: `present` missing from the account
 * counters, the store lost them; counters charged by a release before the marker are whole) is
 * refused with `CountersRestoring` before any limit is read, until the recorder has restored its
 * counters from the ledger. The rule reads the same HMGET as the balance check.
 * An admission runs ten commands inside: the purge's ZRANGEBYSCORE, one HMGET per hash read
 * (account policy, account counters, key counters with every window), ZCARD for the account's
 * slots, and the writes (the lease, HSETNX of the entry, which also finds a request id already in
 * flight, the charge entry, one HSET of the key's counters, the account's reservation).
 * KEYS: keyCounters, accountCounters, accountPolicy, inFlight, inFlightData, inFlightCharge.
 * ARGV: base, requestId, keyUid, now, leaseMs, estimate, quota, window limits (one per WINDOWS
 * entry), keyMaxConcurrent, sourceDenied, modelDenied, markerTtlMs (of a lease charged by the
 * purge), lease charge ('' for none: recordTime TAB record JSON prefix), session binding TTL
 * (0 = no session).
 * KEYS[7] is the session binding (sticky sessions; any name of the namespace when there is none):
 * when admitted, its upstream is read and its TTL renewed.
 * Reply: {'ok', accountUid} ({'ok', accountUid, bound upstream or ''} with a session) or
 * {'refused', reason, window, number}.
 */
import { LUA_COUNTERS_WHOLE } from './counters-whole.js';
import { LUA_RELEASE_AND_PURGE } from './lua-shared-functions.js';

export const ADMISSION_KEY_COUNT = 7;

export const ADMISSION_LUA = `
${LUA_RELEASE_AND_PURGE}
${LUA_COUNTERS_WHOLE}
local keyCounters, accountCounters, accountPolicy, inFlight, inFlightData, inFlightCharge =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local base, requestId, keyUid = ARGV[1], ARGV[2], ARGV[3]
local now, leaseMs, estimate, quota = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local windowCount = #windows
local keyMax = tonumber(ARGV[8 + windowCount])
local sourceDenied = ARGV[9 + windowCount] == '1'
local modelDenied = ARGV[10 + windowCount] == '1'
local markerTtl, leaseCharge = ARGV[11 + windowCount], ARGV[12 + windowCount]
local sessionTtl = tonumber(ARGV[13 + windowCount] or '0')

purgeExpired(base, now, markerTtl)

local account = redis.call('HMGET', accountPolicy, 'uid', 'credit', 'maxConcurrent')
local accountState = redis.call('HMGET', accountCounters, 'spent', 'reserved', 'present', 'lost')
-- The key's counters in one read: used, reserved, inflight, then used and end of each window.
local counters = redis.call('HMGET', keyCounters, unpack(keyCounterFields))

-- A request id already in flight is admitted again whatever the limits say now: its lease is
-- renewed and it keeps its one reservation. Asked only before a refusal; an admission finds it
-- out when it writes the entry (HSETNX).
local function refuse(reason, window, number)
  if redis.call('HEXISTS', inFlightData, requestId) == 1 then
    redis.call('ZADD', inFlight, int(now + leaseMs), requestId)
    return {'ok', account[1] or ''}
  end
  return {'refused', reason, window, number}
end

if account[1] and not countersWhole(accountState[3], accountState[1], accountState[4]) then
  return refuse('CountersRestoring', '', '1')
end

local used, reserved, keyInFlight = num(counters[1]), num(counters[2]), num(counters[3])

if quota > 0 and used + reserved >= quota then
  return refuse('QuotaExhausted', '', '0')
end

for index, window in ipairs(windows) do
  local limit = tonumber(ARGV[7 + index])
  if limit > 0 then
    local windowEnd = num(counters[3 + index * 2])
    local windowUsed = 0
    if windowEnd > now then windowUsed = num(counters[2 + index * 2]) end
    if windowUsed + reserved >= limit then
      local retryAfter = 1
      if windowEnd > now then retryAfter = math.max(1, math.ceil((windowEnd - now) / 1000)) end
      return refuse('WindowExhausted', window[1], tostring(retryAfter))
    end
  end
end

if sourceDenied then return refuse('SourceDenied', '', '0') end

if not account[1] then return refuse('NoAccount', '', '0') end

local spent, accountReserved = num(accountState[1]), num(accountState[2])
if account[2] and account[2] ~= '' and spent + accountReserved >= tonumber(account[2]) then
  return refuse('BalanceExhausted', '', '0')
end

local accountMax = num(account[3])
if accountMax > 0 and redis.call('ZCARD', inFlight) >= accountMax then
  return refuse('AccountConcurrency', '', tostring(accountMax))
end

if keyMax > 0 and keyInFlight >= keyMax then
  return refuse('KeyConcurrency', '', tostring(keyMax))
end

if modelDenied then return refuse('ModelDenied', '', '0') end

redis.call('ZADD', inFlight, int(now + leaseMs), requestId)
if redis.call('HSETNX', inFlightData, requestId, keyUid .. '\\t' .. ARGV[6]) == 0 then
  return {'ok', account[1]}
end
if leaseCharge ~= '' then
  redis.call('HSET', inFlightCharge, requestId, account[1] .. '\\t' .. leaseCharge)
end
redis.call('HSET', keyCounters, 'reserved', int(reserved + estimate), 'inflight', int(keyInFlight + 1))
redis.call('HINCRBY', accountCounters, 'reserved', estimate)
if sessionTtl > 0 then
  local bound = redis.call('GETEX', KEYS[7], 'PX', int(sessionTtl)) or ''
  return {'ok', account[1], bound}
end
return {'ok', account[1]}
`;
