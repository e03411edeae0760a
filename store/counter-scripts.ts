/**
 * The smaller scripts: reading counters (after the lazy charge of expired leases), the lease sweep,
 * quota reset once per token, and the upstream concurrency slot. Each touches one slot: a
 * namespace's, or one upstream's.
 */
import { LUA_RELEASE_AND_PURGE } from './lua-shared-functions.js';

/**
 * KEYS: keyCounters, accountCounters, inFlight, inFlightData. ARGV: base, now, markerTtlMs.
 * Reply: flat HGETALL.
 */
export const READ_KEY_COUNTERS_LUA = `
${LUA_RELEASE_AND_PURGE}
purgeExpired(ARGV[1], tonumber(ARGV[2]), ARGV[3])
return redis.call('HGETALL', KEYS[1])
`;

/** KEYS: inFlight, inFlightData, inFlightCharge. ARGV: base, now, markerTtlMs. Reply: charged. */
export const SWEEP_EXPIRED_LEASES_LUA = `
${LUA_RELEASE_AND_PURGE}
return purgeExpired(ARGV[1], tonumber(ARGV[2]), ARGV[3])
`;

/**
 * KEYS: accountCounters, inFlight, inFlightData. ARGV: base, now, markerTtlMs.
 * Reply: {spent, reserved}.
 */
export const READ_ACCOUNT_COUNTERS_LUA = `
${LUA_RELEASE_AND_PURGE}
purgeExpired(ARGV[1], tonumber(ARGV[2]), ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'spent', 'reserved')
return {state[1] or '0', state[2] or '0'}
`;

/** KEYS: keyCounters. ARGV: token. Reply: 1 when the used quota was zeroed, 0 when seen before. */
export const RESET_QUOTA_LUA = `
if redis.call('HGET', KEYS[1], 'resetToken') == ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'used', 0, 'resetToken', ARGV[1])
return 1
`;

/**
 * KEYS: upstreamSlots. ARGV: requestId, limit, now, leaseMs. Reply: 1 when the slot is held.
 * Acquiring again with the same request id renews its lease.
 */
export const ACQUIRE_UPSTREAM_SLOT_LUA = `
local now, limit = tonumber(ARGV[3]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[3] + ARGV[4], ARGV[1])
  return 1
end
if limit > 0 and redis.call('ZCARD', KEYS[1]) >= limit then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3] + ARGV[4], ARGV[1])
return 1
`;

/**
 * KEYS: records, recordData, aggregateIndex. ARGV: base, olderThan.
 * Removes records older than `olderThan` (also from the per-key indexes) and aggregate hashes whose
 * last contribution is older. Reply: the number of records removed.
 */
export const PRUNE_USAGE_LUA = `
local base, olderThan = ARGV[1], '(' .. ARGV[2]
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', olderThan)
for _, requestId in ipairs(ids) do
  local json = redis.call('HGET', KEYS[2], requestId)
  if json then
    local ok, record = pcall(cjson.decode, json)
    if ok and type(record) == 'table' and type(record.keyUid) == 'string' then
      redis.call('ZREM', base .. 'rec:k:' .. record.keyUid, requestId)
    end
    redis.call('HDEL', KEYS[2], requestId)
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', olderThan)
local suffixes = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', olderThan)
for _, suffix in ipairs(suffixes) do redis.call('DEL', base .. suffix) end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', olderThan)
return #ids
`;
