/**
 * Lua shared by the scripts: the window table, charging a settled cost, and the lazy handling of
 * expired leases. A request in flight is one member of the namespace's `inflight` ZSET (score =
 * lease end) plus `inflight:data[requestId] = keyUid TAB estimateNano`, and, when the gateway
 * prepared one, `inflight:charge[requestId]` = the estimated usage record to write if the lease ends
 * unsettled (and `inflight:charge[requestId:progress]` = what the request delivered, once a renewal
 * brought it). The key's counters hold `reserved` and `inflight` (its slot count), the account
 * counters hold `reserved`. An expired member gives all three back and is charged once (settled
 * marker): its estimate, or the progress its last renewal brought (RENEW_LEASE_LUA), so a gateway
 * that died neither leaks a slot nor makes the call free, nor bills it more than was delivered
 * plus what the upstream may still bill.
 *
 * Charging moves the counters and appends the usage record to the namespace's stream in the same
 * script, so a counter change and its record cannot diverge; the recorder drains the stream into
 * the ledger. Every name is built from the namespace's `base`, so each function works inside any
 * script of the namespace's slot.
 *
 * Every writer of a key's counters writes `used` (a charge, a quota reset, a restore) or `reserved`
 * and `inflight` (an admission), so the counters exist exactly when one of these three is set: the
 * charge of a settlement reads them in its one HMGET instead of asking EXISTS.
 */
import {
  COUNTERS_LOST_FIELD,
  COUNTERS_PRESENT_FIELD,
  COUNTERS_SPENT_FIELD,
} from './redis-key-names.js';
import { PROGRESS_FIELD_SUFFIX } from './encode-lease-charge.js';
import { WINDOWS } from './store.js';
import { LUA_BUDGETS } from './budget-lua.js';
import { LUA_COUNTERS_WHOLE } from './counters-whole.js';

/** What admission and charge read from the key's counters (the Lua table keyCounterFields). */
const KEY_COUNTER_FIELDS = [
  'used',
  'reserved',
  'inflight',
  ...WINDOWS.flatMap((window) => [`${window.name}:used`, `${window.name}:end`]),
];

export const LUA_WINDOWS = `local windows = {${WINDOWS.map(
  (window) => `{'${window.name}', ${window.durationMs}}`,
).join(', ')}}`;

/** The stream entry's field holding the JSON (the recorder reads this field). */
export const USAGE_STREAM_FIELD = 'record';

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

${LUA_BUDGETS}

local function releaseEntry(base, entry)
  local keyUid, estimate, budget = parseEntry(entry)
  local keyCounters = base .. 'kc:' .. keyUid
  if redis.call('EXISTS', keyCounters) == 1 then
    redis.call('HINCRBY', keyCounters, 'reserved', int(-estimate))
    redis.call('HINCRBY', keyCounters, 'inflight', -1)
  end
  redis.call('HINCRBY', base .. 'ac', 'reserved', int(-estimate))
  if budget and budget.owner ~= '' then
    redis.call('HINCRBY', base .. 'mc:' .. budget.owner, 'reserved', int(-estimate))
  end
end

-- The fields admission and charge read from the key's counters in one HMGET: used, reserved,
-- inflight, then used and end of each window (the window of index i at 2 + 2i and 3 + 2i).
local keyCounterFields = {${KEY_COUNTER_FIELDS.map((field) => `'${field}'`).join(', ')}}

-- Charges a settled cost: quota, windows and last use in one read and one write of the key's
-- counters (money stays below 2^53, exact in Lua numbers), the account's spend, and the record
-- appended to the namespace's usage stream. A first charge (nothing spent before) also checks the
-- whole-counters marker. With c.release (the request's reservation, still held), the same read
-- and write give the key's reservation and slot back (only while the counters exist: deleted
-- counters are not recreated with a negative reservation), and the account's reservation too.
-- c: keyUid, cost (text), now, recordJson (the record with its chargedAt), release (number or nil),
-- budget (nil, or the plan and member windows to charge: budget-lua.ts), budgetRelease (the
-- owner's reservation to give back, or nil).
local function chargeCost(base, c)
  local keyCounters = base .. 'kc:' .. c.keyUid
  local cost = tonumber(c.cost)
  local current = redis.call('HMGET', keyCounters, unpack(keyCounterFields))
  local changes, n = {'used', int(num(current[1]) + cost), 'lastUsed', int(c.now)}, 4
  if c.release and (current[1] or current[2] or current[3]) then
    changes[5], changes[6] = 'reserved', int(num(current[2]) - c.release)
    changes[7], changes[8] = 'inflight', int(num(current[3]) - 1)
    n = 8
  end
  for index, window in ipairs(windows) do
    local at = 2 + index * 2
    local windowUsed, windowEnd = num(current[at]), num(current[at + 1])
    if windowEnd > c.now then
      changes[n + 1], changes[n + 2] = keyCounterFields[at], int(windowUsed + cost)
      n = n + 2
    elseif cost > 0 then
      changes[n + 1], changes[n + 2] = keyCounterFields[at], int(cost)
      changes[n + 3], changes[n + 4] = keyCounterFields[at + 1], int(c.now + window[2])
      n = n + 4
    end
  end
  redis.call('HSET', keyCounters, unpack(changes))
  if c.release then
    redis.call('HINCRBY', base .. 'ac', 'reserved', int(-c.release))
  end
  -- No spend before this charge: if the counters are not marked whole either, they were lost, and
  -- this spend must not pass for the history of a release before the marker (counters-whole.ts).
  if redis.call('HINCRBY', base .. 'ac', '${COUNTERS_SPENT_FIELD}', c.cost) == cost
    and redis.call('HEXISTS', base .. 'ac', '${COUNTERS_PRESENT_FIELD}') == 0 then
    redis.call('HSET', base .. 'ac', '${COUNTERS_LOST_FIELD}', '1')
  end
  if c.budget then
    chargeBudgets(base, c.budget, {now = c.now, cost = cost, release = c.budgetRelease})
  end
  redis.call('XADD', base .. 'usage', '*', '${USAGE_STREAM_FIELD}', c.recordJson)
end

-- The estimated charge of a lease that ended unsettled, once per request id. The charge entry is
-- accountUid TAB recordTime TAB record JSON without its closing brace, its cost the reservation;
-- a renewal's progress beside it (field requestId:progress) is deliveredNano TAB chargeNano TAB
-- record JSON without its cost and closing brace (encode-lease-charge.ts). With progress, the
-- charge is bounded as leaseExpiryCostNano does (store.ts): at most the reservation, never less
-- than what was delivered.
local function chargeExpired(base, requestId, entry, leaseEnd, now, markerTtl)
  local chargeKey = base .. 'inflight:charge'
  local charge = redis.call('HGET', chargeKey, requestId)
  if not charge then return 0 end
  local progress = redis.call('HGET', chargeKey, requestId .. '${PROGRESS_FIELD_SUFFIX}')
  redis.call('HDEL', chargeKey, requestId, requestId .. '${PROGRESS_FIELD_SUFFIX}')
  if not redis.call('SET', base .. 'settled:' .. requestId, '1', 'NX', 'PX', markerTtl) then
    return 0
  end
  local keyUid, estimate, budget = parseEntry(entry)
  local fields = splitTabs(charge, 3)
  local cost, json = int(estimate), fields[3]
  local delivered = progress and splitTabs(progress, 3)
  if delivered then
    cost = int(math.max(tonumber(delivered[1]), math.min(tonumber(delivered[2]), tonumber(cost))))
    json = delivered[3] .. ',"costNano":' .. cost
  end
  local duration = int(math.max(0, leaseEnd - tonumber(fields[2])))
  chargeCost(base, {
    keyUid = keyUid, cost = cost, now = now, budget = budget,
    recordJson = json .. ',"accountUid":' .. cjson.encode(fields[1]) ..
      ',"durationMs":' .. duration .. ',"chargedAt":' .. int(now) .. '}',
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
    redis.call('HDEL', base .. 'inflight:charge', requestId, requestId .. '${PROGRESS_FIELD_SUFFIX}')
    redis.call('ZREM', inFlight, requestId)
  end
  return charged
end
`;

/**
 * The Lua the admission, settlement and counter-reading scripts start from (define-store-scripts.ts
 * puts it before each when it is sent by EVALSHA, and makes it the function library's top level).
 */
export const LUA_SCRIPT_PRELUDE = `${LUA_RELEASE_AND_PURGE}\n${LUA_COUNTERS_WHOLE}`;
