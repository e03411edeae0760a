/**
 * The operator sets each Upstream's `Available` condition, `status.cooldownEndTime`, Events and the
 * availability gauges from the upstream health the gateways share in the store: against the local
 * control plane with real kubectl and the memory store.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOperator, type RunningOperator } from '../../../operator/start-operator.js';
import type { UpstreamHealthPolicy } from '../../../store/upstream-health.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';
import { UPSTREAM } from './operator-fixtures.js';

interface UpstreamObject {
  status?: {
    cooldownEndTime?: string;
    conditions?: { type: string; status: string; reason: string; message: string }[];
  };
}

interface EventList {
  items: { reason: string; type: string; involvedObject: { kind: string; name: string } }[];
}

const POLICY: UpstreamHealthPolicy = {
  failureThreshold: 2,
  baseCooldownMs: 60_000,
  maxCooldownMs: 600_000,
};

let harness: Harness;
let operator: RunningOperator;

beforeAll(async () => {
  harness = await startHarness({});
  operator = await startOperator({
    kubeConfig: harness.kubeConfig,
    store: harness.store,
    namespace: 'tollgate-system',
    pepper: harness.pepper,
    credentialKey: harness.credentialKey,
    identity: 'availability',
    logger: pino({ level: process.env.DEBUG_AVAILABILITY === undefined ? 'silent' : 'warn' }),
    leaseDurationMs: 3_000,
    renewIntervalMs: 500,
    metricsPort: 0,
    upstreamHealthRefreshMs: 150,
  });
  await harness.apply(UPSTREAM);
}, 60_000);

afterAll(async () => {
  await operator.close();
  await harness.close();
});

async function available(reason: string) {
  return waitFor(`Available reason ${reason}`, async () => {
    const upstream = await harness.getJson<UpstreamObject>(['upstream', 'anthropic-main']);
    const condition = upstream.status?.conditions?.find((each) => each.type === 'Available');
    return condition?.reason === reason ? { upstream, condition } : undefined;
  });
}

async function gauges(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${operator.metricsPort}/metrics`);
  return response.text();
}

/** The gauges, once they contain `line` (the leader's refresh timer sets them, after the status). */
async function gaugesWith(line: string): Promise<string> {
  return waitFor(`the gauge line ${line}`, async () => {
    const text = await gauges();
    return text.includes(line) ? text : undefined;
  });
}

async function events(reason: string) {
  return waitFor(`an Event ${reason}`, async () => {
    const list = await harness.getJson<EventList>(['events', '-n', 'tollgate-system']);
    const found = list.items.filter(
      (event) => event.reason === reason && event.involvedObject.name === 'anthropic-main',
    );
    return found.length > 0 ? found : undefined;
  });
}

describe('Upstream availability', () => {
  it('is Healthy while the upstream takes calls', async () => {
    const { upstream, condition } = await available('Healthy');
    expect(condition.status).toBe('True');
    expect(upstream.status?.cooldownEndTime).toBeUndefined();
    // The reconcile's own conditions stay.
    expect(upstream.status?.conditions?.map((each) => each.type)).toContain('ResolvedRefs');
    const healthy = 'tollgate_upstream_available{upstream="anthropic-main",reason="Healthy"} 1';
    expect(await gaugesWith(healthy)).toContain(healthy);
  });

  it('shows a cool-down with its end time, an Event and the gauges', async () => {
    const resetAt = Math.ceil(Date.now() / 1000) * 1000 + 120_000;
    await harness.store.reportUpstreamFailure({
      upstream: 'anthropic-main',
      kind: 'rate-limited',
      resetAt,
      now: Date.now(),
      policy: POLICY,
    });
    const { upstream, condition } = await available('CoolingDown');
    expect(condition.status).toBe('False');
    expect(upstream.status?.cooldownEndTime).toBe(
      new Date(resetAt).toISOString().replace('.000', ''),
    );
    expect((await events('CoolingDown'))[0]?.type).toBe('Warning');
    const coolingDown =
      'tollgate_upstream_available{upstream="anthropic-main",reason="CoolingDown"} 1';
    const text = await gaugesWith(coolingDown);
    expect(text).toContain(coolingDown);
    expect(text).toContain(
      'tollgate_upstream_available{upstream="anthropic-main",reason="Healthy"} 0',
    );
    expect(text).toContain(
      `tollgate_upstream_cooldown_end_timestamp_seconds{upstream="anthropic-main"} ${resetAt / 1000}`,
    );
  });

  it('shows an open circuit and invalid credentials', async () => {
    await harness.store.reportUpstreamSuccess('anthropic-main');
    for (let index = 0; index < POLICY.failureThreshold; index++) {
      await harness.store.reportUpstreamFailure({
        upstream: 'anthropic-main',
        kind: 'failed',
        resetAt: null,
        now: Date.now(),
        policy: POLICY,
      });
    }
    const open = await available('CircuitOpen');
    expect(open.condition.message).toContain('consecutive failures');
    expect(open.upstream.status?.cooldownEndTime).toBeDefined();
    await harness.store.reportUpstreamFailure({
      upstream: 'anthropic-main',
      kind: 'credentials',
      resetAt: null,
      now: Date.now(),
      policy: POLICY,
    });
    const refused = await available('CredentialsInvalid');
    expect(refused.condition.message).toContain('401/403');
  });

  it('turns Healthy again after a success, without the end time, with an Event', async () => {
    await harness.store.reportUpstreamSuccess('anthropic-main');
    const { upstream, condition } = await available('Healthy');
    expect(condition.status).toBe('True');
    expect(upstream.status?.cooldownEndTime).toBeUndefined();
    expect((await events('Healthy'))[0]?.type).toBe('Normal');
  });
});
