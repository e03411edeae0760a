/**
 * The admission script: every check in the contract's order, then the reservation and both
 * concurrency slots, in one script call (FCALL) against the namespace's slot. It starts from the
 * shared Lua (LUA_SCRIPT_PRELUDE).
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
 * (0 = no session), owner ('' for none), calendar ends ('' = UTC days: dayEnd TAB weekEnd TAB
 * monthEnd).
 * An account with a plan or member limits (budget-lua.ts) also has the owner's member windows and
 * the plan's windows checked after NoAccount and before the balance, reserves in the owner's
 * counters, and keeps the budget in the request's entry; an account without either runs none of it.
 * KEYS[7] is the session binding (sticky sessions; any name of the namespace when there is none):
 * when admitted, its upstream is read and its TTL renewed.
 * Reply: {'ok', accountUid} ({'ok', accountUid, bound upstream or ''} with a session) or
 * {'refused', reason, window, number}.
 */
export const ADMISSION_KEY_COUNT = 7;

export const ADMISSION_LUA = `
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
local owner, calendarText = ARGV[14 + windowCount] or '', ARGV[15 + windowCount] or ''

purgeExpired(base, now, markerTtl)

local account = redis.call('HMGET', accountPolicy, 'uid', 'credit', 'maxConcurrent', 'plan', 'members')
local planText, membersText = account[4], account[5]
-- The plan's windows are read in the same HMGET, only for an account with a plan.
local accountState
if planText then
  accountState = redis.call('HMGET', accountCounters, 'spent', 'reserved', 'present', 'lost',
    unpack(planCounterFields))
else
  accountState = redis.call('HMGET', accountCounters, 'spent', 'reserved', 'present', 'lost')
end
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

-- Member budget, then subscription (budget-lua.ts), only for an account with either.
local budget, memberOwner = nil, ''
if planText or (membersText and owner ~= '') then
  local ends
  if calendarText ~= '' then
    local e = splitTabs(calendarText, 3)
    ends = {tonumber(e[1]), tonumber(e[2]), tonumber(e[3])}
  else
    ends = utcEnds(now)
  end
  if membersText and owner ~= '' then
    memberOwner = owner
    local limits = splitTabs(membersText, 3)
    local state = redis.call('HMGET', base .. 'mc:' .. owner, unpack(memberCounterFields))
    local name, retryAfter = exhaustedWindow({
      names = memberWindowNames, state = state, offset = 1, reserved = num(state[1]),
      limits = {tonumber(limits[1]), tonumber(limits[2]), tonumber(limits[3])},
      isPlan = false, now = now, ends = ends,
    })
    if name then return refuse('MemberBudgetExhausted', name, tostring(retryAfter)) end
  end
  if planText then
    local plan = splitTabs(planText, 6)
    local stop = tonumber(plan[2])
    if now < tonumber(plan[1]) or (stop and now >= stop) then
      -- Outside the period the balance pays, if the account has one left.
      if not account[2] or account[2] == '' or spent + accountReserved >= tonumber(account[2]) then
        return refuse('SubscriptionExpired', '', '0')
      end
    else
      local name, retryAfter = exhaustedWindow({
        names = planWindowNames, state = accountState, offset = 4, reserved = accountReserved,
        limits = {tonumber(plan[3]), tonumber(plan[4]), tonumber(plan[5]), tonumber(plan[6])},
        isPlan = true, now = now, ends = ends,
      })
      if name then return refuse('SubscriptionExhausted', name, tostring(retryAfter)) end
    end
  end
  budget = (planText and '1' or '0') .. '\\t' .. int(ends[1]) .. '\\t' .. int(ends[2]) .. '\\t' ..
    int(ends[3]) .. '\\t' .. memberOwner
end

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
local entry = keyUid .. '\\t' .. ARGV[6]
if budget then entry = entry .. '\\t' .. budget end
if redis.call('HSETNX', inFlightData, requestId, entry) == 0 then
  return {'ok', account[1]}
end
if memberOwner ~= '' then
  redis.call('HINCRBY', base .. 'mc:' .. memberOwner, 'reserved', estimate)
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
