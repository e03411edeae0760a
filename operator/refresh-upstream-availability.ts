/**
 * Upstream availability from the store (docs/upstream-pools.md). Every refresh the leader reads
 * the health of every Upstream (one `HMGET` each), sets the availability gauges, and queues the
 * Upstreams whose `Available` condition or `cooldownEndTime` no longer match, so the Upstream's own
 * reconcile writes the whole status (one writer: no condition of the reconcile is lost) and records
 * an Event when the reason changed (`upstreamAvailability`, called by the reconcile).
 */
import type { Upstream } from '../crds/schema/resources.js';
import { HEALTHY } from '../store/upstream-health.js';
import type { OperatorContext } from './operator-context.js';
import { queueKey } from './operator-context.js';
import { readResourceOrNull } from './read-typed-resource.js';
import { findCondition } from './reconcile/manage-conditions.js';
import {
  projectUpstreamAvailability,
  type UpstreamAvailability,
} from './reconcile/project-upstream-availability.js';
import type { UpstreamAvailabilityMetrics } from './upstream-availability-metrics.js';

/** True when the Upstream's status already shows this availability. */
export function showsAvailability(upstream: Upstream, availability: UpstreamAvailability): boolean {
  const previous = findCondition(upstream.status?.conditions, 'Available');
  return (
    previous?.reason === availability.condition.reason &&
    previous.message === availability.condition.message &&
    (upstream.status?.cooldownEndTime ?? null) === availability.cooldownEndTime
  );
}

export async function refreshUpstreamAvailability(
  context: OperatorContext,
  metrics: UpstreamAvailabilityMetrics,
): Promise<void> {
  const upstreams = context.cache
    .list('Upstream')
    .map((object) => readResourceOrNull(context, 'Upstream', { name: object.metadata.name }))
    .filter((upstream): upstream is Upstream => upstream !== null);
  const names = upstreams.map((upstream) => upstream.metadata.name);
  metrics.retain(new Set(names));
  if (names.length === 0) return;
  const health = await context.store.upstreamHealth(names, context.now());
  for (const upstream of upstreams) {
    const name = upstream.metadata.name;
    const current = health.get(name) ?? HEALTHY;
    const availability = projectUpstreamAvailability(current);
    metrics.observe(name, availability.reason, current.until);
    if (!showsAvailability(upstream, availability)) {
      context.queue.add(queueKey('Upstream', undefined, name));
    }
  }
}

/** The reconcile's part: the availability to write, read from the store. */
export async function upstreamAvailability(
  context: OperatorContext,
  name: string,
): Promise<UpstreamAvailability> {
  const health = await context.store.upstreamHealth([name], context.now());
  return projectUpstreamAvailability(health.get(name) ?? HEALTHY);
}

/** Records an Event when the reason changed; Events are a courtesy (status and gauges say it too). */
export async function recordAvailabilityEvent(
  context: OperatorContext,
  upstream: Upstream,
  availability: UpstreamAvailability,
): Promise<void> {
  const previous = findCondition(upstream.status?.conditions, 'Available');
  if (previous?.reason === availability.reason) return;
  try {
    await context.api.createEvent(context.namespace, {
      involvedObject: {
        apiVersion: upstream.apiVersion,
        kind: 'Upstream',
        name: upstream.metadata.name,
        uid: upstream.metadata.uid,
      },
      type: availability.reason === 'Healthy' ? 'Normal' : 'Warning',
      reason: availability.reason,
      message: availability.condition.message,
      time: new Date(context.now()),
    });
  } catch (error) {
    context.logger.warn({ err: error, upstream: upstream.metadata.name }, 'event not recorded');
  }
}
