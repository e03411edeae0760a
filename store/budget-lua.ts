/**
 * The Lua of plan windows and member budgets (budget-windows.ts), shared by the admission and
 * settlement scripts (lua-shared-functions.ts includes it). Every name is built from the
 * namespace's `base`, so everything stays in the namespace's slot:
 * - the plan's windows in the account counters (`<base>ac`): fields `plan:<Window>:used` and
 *   `plan:<Window>:end`; their reservation is the account's `reserved`;
 * - one hash per owner, `<base>mc:<owner>`: `reserved` (of the owner's requests in flight) and
 *   `<Window>:used` / `<Window>:end` for Daily, Weekly and Monthly.
 * The account policy hash holds `plan` (startMs TAB endMs or '' TAB fiveHour TAB daily TAB weekly
 * TAB monthly, nano-USD, 0 = no cap) and `members` (daily TAB weekly TAB monthly); an account
 * without them never enters these functions.
 * A request in flight that counts toward them carries the budget in its `inflight:data` entry:
 * keyUid TAB estimate TAB planFlag TAB dayEnd TAB weekEnd TAB monthEnd TAB owner ('' for none);
 * entries of other requests keep the two-field layout.
 */
import { FIVE_HOUR_MS, MEMBER_WINDOWS, PLAN_WINDOWS } from './budget-windows.js';

const luaList = (names: readonly string[]) => names.map((name) => `'${name}'`).join(', ');

/** The account counters' plan fields, in window order (used, end). */
export const PLAN_COUNTER_FIELDS = PLAN_WINDOWS.flatMap((name) => [
  `plan:${name}:used`,
  `plan:${name}:end`,
]);

/** The member counters' fields: reserved, then used and end of each window. */
export const MEMBER_COUNTER_FIELDS = [
  'reserved',
  ...MEMBER_WINDOWS.flatMap((name) => [`${name}:used`, `${name}:end`]),
];

export const LUA_BUDGETS = `
local planWindowNames = {${luaList(PLAN_WINDOWS)}}
local memberWindowNames = {${luaList(MEMBER_WINDOWS)}}
local planCounterFields = {${luaList(PLAN_COUNTER_FIELDS)}}
local memberCounterFields = {${luaList(MEMBER_COUNTER_FIELDS)}}

-- ends: {dayEnd, weekEnd, monthEnd}. The end of a window opened now (plan index 1 is rolling).
local function budgetWindowEnd(index, isPlan, now, ends)
  if isPlan then
    if index == 1 then return now + ${FIVE_HOUR_MS} end
    return ends[index - 1]
  end
  return ends[index]
end

-- Calendar ends in UTC, for a caller that passes none (civil dates from days since the epoch).
local function utcEnds(now)
  local day = 86400000
  local days = math.floor(now / day)
  -- 1970-01-01 was a Thursday: days since the last Monday = (days + 3) % 7.
  local weekEnd = (days - (days + 3) % 7 + 7) * day
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  -- The next month's first day, counted from March (mp 0) as the algorithm does.
  local nextMp, year = mp + 1, yoe + era * 400
  if nextMp == 12 then nextMp, year = 0, year + 1 end
  local nextDoy = math.floor((153 * nextMp + 2) / 5)
  local monthStartDays = era * 146097 + (year - era * 400) * 365 + math.floor((year - era * 400) / 4)
    - math.floor((year - era * 400) / 100) + nextDoy - 719468
  return {(days + 1) * day, weekEnd, monthStartDays * day}
end

-- The first window whose used + reserved reaches its limit: name and seconds to its reset.
-- w.state: an HMGET reply holding window i's used at offset + 2i - 1 and end at offset + 2i;
-- w.limits: numbers in window order.
local function exhaustedWindow(w)
  for index, name in ipairs(w.names) do
    local limit = w.limits[index]
    if limit > 0 then
      local windowEnd = num(w.state[w.offset + index * 2])
      local used = 0
      if windowEnd > w.now then used = num(w.state[w.offset + index * 2 - 1]) end
      if used + w.reserved >= limit then
        if windowEnd <= w.now then windowEnd = budgetWindowEnd(index, w.isPlan, w.now, w.ends) end
        return name, math.max(1, math.ceil((windowEnd - w.now) / 1000))
      end
    end
  end
  return nil
end

-- The changes charging cost makes to the windows (HSET field/value pairs appended to changes).
local function chargeBudgetWindows(w, changes)
  for index, _ in ipairs(w.names) do
    local usedField, endField = w.fields[w.offset + index * 2 - 1], w.fields[w.offset + index * 2]
    local windowEnd = num(w.state[w.offset + index * 2])
    if windowEnd > w.now then
      table.insert(changes, usedField)
      table.insert(changes, int(num(w.state[w.offset + index * 2 - 1]) + w.cost))
    elseif w.cost > 0 then
      table.insert(changes, usedField)
      table.insert(changes, int(w.cost))
      table.insert(changes, endField)
      table.insert(changes, int(budgetWindowEnd(index, w.isPlan, w.now, w.ends)))
    end
  end
end

-- A budget as text: planFlag TAB dayEnd TAB weekEnd TAB monthEnd TAB owner.
local function parseBudget(text)
  local fields = splitTabs(text, 5)
  return {
    plan = fields[1] == '1',
    ends = {tonumber(fields[2]), tonumber(fields[3]), tonumber(fields[4])},
    owner = fields[5],
  }
end

-- Splits an entry of inflight:data: keyUid, estimate and the budget (nil without one).
local function parseEntry(entry)
  local first = string.find(entry, '\\t', 1, true)
  local second = string.find(entry, '\\t', first + 1, true)
  if not second then
    return string.sub(entry, 1, first - 1), tonumber(string.sub(entry, first + 1)), nil
  end
  return string.sub(entry, 1, first - 1), tonumber(string.sub(entry, first + 1, second - 1)),
    parseBudget(string.sub(entry, second + 1))
end

-- Charges cost to the plan's windows (b.plan) and the owner's (b.owner ~= ''), and gives the
-- owner's reservation back (release, or nil). b: {plan, ends, owner}.
local function chargeBudgets(base, b, c)
  if b.plan then
    local state = redis.call('HMGET', base .. 'ac', unpack(planCounterFields))
    local changes = {}
    chargeBudgetWindows({names = planWindowNames, fields = planCounterFields, state = state,
      offset = 0, isPlan = true, now = c.now, ends = b.ends, cost = c.cost}, changes)
    if #changes > 0 then redis.call('HSET', base .. 'ac', unpack(changes)) end
  end
  if b.owner and b.owner ~= '' then
    local memberKey = base .. 'mc:' .. b.owner
    local state = redis.call('HMGET', memberKey, unpack(memberCounterFields))
    local changes = {}
    if c.release then
      changes = {'reserved', int(num(state[1]) - c.release)}
    end
    chargeBudgetWindows({names = memberWindowNames, fields = memberCounterFields, state = state,
      offset = 1, isPlan = false, now = c.now, ends = b.ends, cost = c.cost}, changes)
    if #changes > 0 then redis.call('HSET', memberKey, unpack(changes)) end
  end
end
`;
