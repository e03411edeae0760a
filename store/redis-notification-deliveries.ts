/**
 * Notification deliveries on Redis (notification-deliveries.ts). Everything lives under one hash
 * tag, `{notify}` (one Cluster slot; the volume is a few events a minute): a document per event
 * (`SET NX PX`, the claim), the due queue (a sorted set by due time), a capped list of ids per
 * notifier and a hash of counts. Each step is one script, so a claim never exists without its queue
 * entry and two replicas never take the same delivery at once.
 */
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import {
  NOTIFICATION_HISTORY_KEPT,
  type NotificationDelivery,
  type NotificationStore,
} from './notification-deliveries.js';

// KEYS: document, due, history list. ARGV: json, ttl, id, dueAt, kept.
const ENQUEUE = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
redis.call('LPUSH', KEYS[3], ARGV[3])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[5]) - 1)
return 1`;

// KEYS: due. ARGV: now, leaseUntil, limit. The leased ids (their documents are read after).
const TAKE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return ids`;

// KEYS: document, due, counts. ARGV: json, ttl, id, state, dueAt, notifier.
const SAVE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[4] == 'Pending' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[3])
else
  if redis.call('ZREM', KEYS[2], ARGV[3]) == 1 then
    redis.call('HINCRBY', KEYS[3], ARGV[6] .. '|' .. ARGV[4], 1)
  end
end
return 1`;

function parse(text: string | null): NotificationDelivery | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as NotificationDelivery;
  } catch {
    return null;
  }
}

export function createRedisNotificationDeliveries(
  client: RedisClient,
  prefix: string,
): NotificationStore {
  const base = `${prefix}notify:{notify}:`;
  const documentPrefix = `${base}d:`;
  const due = `${base}due`;
  const counts = `${base}counts`;
  const history = (notifier: string) => `${base}h:${notifier}`;
  return {
    enqueueNotification: (delivery, claimTtlMs) =>
      guardRedis(async () => {
        const reply = await client.eval(
          ENQUEUE,
          3,
          documentPrefix + delivery.id,
          due,
          history(delivery.notifier),
          JSON.stringify(delivery),
          String(claimTtlMs),
          delivery.id,
          String(delivery.dueAt),
          String(NOTIFICATION_HISTORY_KEPT),
        );
        return reply === 1;
      }),
    takeDueNotifications: ({ now, leaseMs, limit }) =>
      guardRedis(async () => {
        const ids = (await client.eval(
          TAKE,
          1,
          due,
          String(now),
          String(now + leaseMs),
          String(limit),
        )) as string[];
        if (ids.length === 0) return [];
        const documents = await client.mget(ids.map((id) => documentPrefix + id));
        // A document that expired (its claim ended) leaves the queue.
        const gone = ids.filter((_, index) => documents[index] === null);
        if (gone.length > 0) await client.zrem(due, ...gone);
        return documents.map(parse).filter((found) => found !== null);
      }),
    saveNotification: (delivery, claimTtlMs) =>
      guardRedis(async () => {
        await client.eval(
          SAVE,
          3,
          documentPrefix + delivery.id,
          due,
          counts,
          JSON.stringify(delivery),
          String(claimTtlMs),
          delivery.id,
          delivery.state,
          String(delivery.dueAt),
          delivery.notifier,
        );
      }),
    notificationHistory: (notifier, limit) =>
      guardRedis(async () => {
        const ids = await client.lrange(history(notifier), 0, limit - 1);
        const documents =
          ids.length === 0 ? [] : await client.mget(ids.map((id) => documentPrefix + id));
        const [delivered, failed] = await client.hmget(
          counts,
          `${notifier}|Delivered`,
          `${notifier}|Failed`,
        );
        return {
          deliveries: documents.map(parse).filter((found) => found !== null),
          delivered: Number(delivered ?? 0),
          failed: Number(failed ?? 0),
        };
      }),
  };
}
