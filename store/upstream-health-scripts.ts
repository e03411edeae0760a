/**
 * The upstream health scripts (the rules of `memory-upstream-health.ts` on Redis). Every key of
 * one upstream carries its hash tag `{<name>}`, so each script touches one Cluster slot: the
 * health hash (`state`, `until`, `failures`, `streak`, `cause`, `probe`, `probeUntil`, `auth`),
 * the concurrency slots ZSET and the requests-per-minute counter of the current minute.
 */

/** The health hash's fields, in the order the claim script reads them (state, until, probe first). */
const HEALTH_FIELDS = [
  'state',
  'until',
  'probe',
  'probeUntil',
  'failures',
  'streak',
  'cause',
  'auth',
] as const;

/**
 * KEYS: health, slots, requests of this minute. ARGV: requestId, limit, requestsPerMinute, now,
 * leaseMs, probeLeaseMs, minute end.
 * Reply: {1, probe 0|1, slot 0|1, dirty 0|1} or {0, reason, until ('' = unknown)}.
 */
export const CLAIM_UPSTREAM_LUA = `
local requestId = ARGV[1]
local limit, perMinute, now = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
-- Every field of the health hash: the hash exists (dirty) exactly when one of them is set.
local health = redis.call('HMGET', KEYS[1], ${HEALTH_FIELDS.map((field) => `'${field}'`).join(', ')})
local state, untilMs = health[1], tonumber(health[2] or '0')
local dirty = 0
for index = 1, ${HEALTH_FIELDS.length} do
  if health[index] then dirty = 1 end
end
local probe = 0
if state == 'cooling' and untilMs > now then return {0, 'CoolingDown', tostring(untilMs)} end
if state == 'open' then
  if untilMs > now then return {0, 'CircuitOpen', tostring(untilMs)} end
  local probeUntil = tonumber(health[4] or '0')
  if health[3] and health[3] ~= requestId and probeUntil > now then
    return {0, 'CircuitOpen', tostring(probeUntil)}
  end
  probe = 1
end
-- The minute's counter is taken first and given back on a refusal: one INCR when granted.
if perMinute > 0 then
  local started = redis.call('INCR', KEYS[3])
  if started == 1 then redis.call('PEXPIREAT', KEYS[3], tonumber(ARGV[7]) + 1000) end
  if started > perMinute then
    redis.call('DECR', KEYS[3])
    return {0, 'RequestsPerMinute', ARGV[7]}
  end
end
local slot = 0
if limit > 0 then
  -- Expired slots are removed only when they could matter: while the set holds fewer members
  -- than the limit, the live ones are fewer too.
  if redis.call('ZCARD', KEYS[2]) >= limit then
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
    if not redis.call('ZSCORE', KEYS[2], requestId) and redis.call('ZCARD', KEYS[2]) >= limit then
      if perMinute > 0 then redis.call('DECR', KEYS[3]) end
      return {0, 'Busy', ''}
    end
  end
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[5]), requestId)
  slot = 1
end
if probe == 1 then
  redis.call('HSET', KEYS[1], 'probe', requestId, 'probeUntil', now + tonumber(ARGV[6]))
end
return {1, probe, slot, dirty}
`;

/**
 * KEYS: health. ARGV: kind, resetAt ('' = none), now, failureThreshold, baseCooldownMs,
 * maxCooldownMs. Reply: {state ('' | cooling | open), until, failures, cause, auth, started 0|1}.
 */
export const REPORT_UPSTREAM_FAILURE_LUA = `
local kind, now = ARGV[1], tonumber(ARGV[3])
local threshold, base, cap = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local h = redis.call('HMGET', KEYS[1], 'state', 'until', 'failures', 'streak', 'cause', 'auth')
local state, untilMs = h[1], tonumber(h[2] or '0')
local failures, streak, cause, auth = tonumber(h[3] or '0'), tonumber(h[4] or '0'), h[5], h[6]
local function backoff(n)
  local exponent = math.min(math.max(n - 1, 0), 30)
  return math.min(cap, base * math.pow(2, exponent))
end
local function inForce(s, u) return s == 'open' or (s == 'cooling' and u > now) end
local before = inForce(state, untilMs)
if kind == 'credentials' then
  auth = ARGV[3]
  redis.call('HSET', KEYS[1], 'auth', auth)
else
  failures = failures + 1
  if kind == 'rate-limited' or kind == 'overloaded' then
    streak = streak + 1
    local nextUntil = now + backoff(streak)
    if ARGV[2] ~= '' then nextUntil = tonumber(ARGV[2]) end
    if state == 'cooling' then nextUntil = math.max(untilMs, nextUntil) end
    state, untilMs, cause = 'cooling', nextUntil, kind
    redis.call('HDEL', KEYS[1], 'probe', 'probeUntil')
  elseif state == 'open' then
    if untilMs <= now then
      streak = streak + 1
      untilMs = now + backoff(streak)
      redis.call('HDEL', KEYS[1], 'probe', 'probeUntil')
    end
  elseif failures >= threshold then
    streak = streak + 1
    state, untilMs, cause = 'open', now + backoff(streak), 'failed'
    redis.call('HDEL', KEYS[1], 'probe', 'probeUntil')
  end
  redis.call('HSET', KEYS[1], 'failures', failures, 'streak', streak)
  if state then
    redis.call('HSET', KEYS[1], 'state', state, 'until', string.format('%d', untilMs), 'cause', cause)
  end
end
local started = 0
if not before and inForce(state, untilMs) then started = 1 end
return {state or '', string.format('%d', untilMs), failures, cause or '', auth or '', started}
`;

/** KEYS: health of every upstream asked (one slot each: called one key at a time). */
export const READ_UPSTREAM_HEALTH_FIELDS = ['state', 'until', 'failures', 'cause', 'auth'] as const;
