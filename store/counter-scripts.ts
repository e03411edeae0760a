/**
 * The smaller scripts: reading counters (after the lazy charge of expired leases), the lease sweep,
 * quota reset once per token, and the upstream concurrency slot. Each touches one slot: a
 * namespace's, or one upstream's.
 */
import { PROGRESS_FIELD_SUFFIX } from './encode-lease-charge.js';
import { USAGE_STREAM_FIELD } from './lua-shared-functions.js';

/**
 * KEYS: keyCounters, accountCounters, inFlight, inFlightData. ARGV: base, now, markerTtlMs.
 * Reply: flat HGETALL.
 */
export const READ_KEY_COUNTERS_LUA = `
purgeExpired(ARGV[1], tonumber(ARGV[2]), ARGV[3])
return redis.call('HGETALL', KEYS[1])
`;

/** KEYS: inFlight, inFlightData, inFlightCharge. ARGV: base, now, markerTtlMs. Reply: charged. */
export const SWEEP_EXPIRED_LEASES_LUA = `
return purgeExpired(ARGV[1], tonumber(ARGV[2]), ARGV[3])
`;

/**
 * A renewal that carries a request's progress: the lease extended as the plain renewal does it
 * (ZADD XX GT: only a request still in flight, never shortened), and the progress stored beside
 * the request's charge entry (field requestId:progress, encode-lease-charge.ts), replacing the
 * previous one, so an expired lease is charged what was delivered. A request settled or charged
 * has no charge entry: nothing is written.
 * KEYS: inFlight, inFlightCharge. ARGV: requestId, untilMs, progress. Reply: 1 when kept.
 */
export const RENEW_LEASE_LUA = `
redis.call('ZADD', KEYS[1], 'XX', 'GT', ARGV[2], ARGV[1])
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1] .. '${PROGRESS_FIELD_SUFFIX}', ARGV[3])
return 1
`;

/**
 * KEYS: accountCounters, inFlight, inFlightData. ARGV: base, now, markerTtlMs.
 * Reply: {spent, reserved, then used and end of each plan window ('' when absent)}.
 */
export const READ_ACCOUNT_COUNTERS_LUA = `
purgeExpired(ARGV[1], tonumber(ARGV[2]), ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'spent', 'reserved', unpack(planCounterFields))
local reply = {state[1] or '0', state[2] or '0'}
for index = 3, #state do reply[index] = state[index] or '' end
return reply
`;

/**
 * KEYS: keyCounters, usageStream. ARGV: token, reset event JSON. Reply: 1 when the used quota was
 * zeroed, 0 when the token was seen before. The reset is appended to the usage stream, so the
 * ledger knows when each key's quota restarted (the counter restore sums from there).
 */
export const RESET_QUOTA_LUA = `
if redis.call('HGET', KEYS[1], 'resetToken') == ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'used', 0, 'resetToken', ARGV[1])
redis.call('XADD', KEYS[2], '*', '${USAGE_STREAM_FIELD}', ARGV[2])
return 1
`;

/**
 * KEYS: upstreamSlots. ARGV: requestId, limit, now, leaseMs. Reply: 1 when the slot is held.
 * Acquiring again with the same request id renews its lease.
 */
export const ACQUIRE_UPSTREAM_SLOT_LUA = `
local now, limit = tonumber(ARGV[3]), tonumber(ARGV[2])
-- With a limit, expired slots are removed only when they could matter: while the set holds fewer
-- members than the limit, the live ones are fewer too.
if limit <= 0 or redis.call('ZCARD', KEYS[1]) >= limit then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  if limit > 0 and not redis.call('ZSCORE', KEYS[1], ARGV[1])
    and redis.call('ZCARD', KEYS[1]) >= limit then
    return 0
  end
end
redis.call('ZADD', KEYS[1], ARGV[3] + ARGV[4], ARGV[1])
return 1
`;
