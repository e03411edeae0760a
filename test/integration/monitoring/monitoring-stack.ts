/**
 * Test support: the world the monitoring test watches. `tollgate local` on its own Redis (so the
 * test can pause it), with a short settlement retry window; two fake providers of the test's own
 * (one answering 529, one streaming slowly) and a closed port as extra Upstreams; keys of every
 * kind; a Notifier whose receiver refuses its deliveries; tracing on towards a closed port; then
 * traffic: answered and streamed calls on every platform, refusals, upstream failures, two keys
 * brought to and past their quota, and a store outage during streams.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { formatNanoAsUSD } from '../../../operator/reconcile/parse-money.js';
import { startLocalProcess, type LocalProcess } from '../first-run/local-process.js';
import { freePort, startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { call, callMany, usedQuotaNano, type TrafficPlatform } from './drive-traffic.js';

export interface MonitoringStack {
  local: LocalProcess;
  gatewayMetrics: string;
  operatorMetrics: string;
  redis: RedisServer;
  stop(): Promise<void>;
}

function banner(output: string, label: string): string {
  const match = new RegExp(`^\\s+${label}:\\s+(\\S+)`, 'm').exec(output);
  if (match?.[1] === undefined) throw new Error(`banner has no ${label}:\n${output}`);
  return match[1];
}

/** `host:port` of a metrics URL from the banner. */
function hostPort(url: string): string {
  return new URL(url).host;
}

const ENVIRONMENT = {
  // Settlements the paused store refuses are handed over after 2 s instead of 5 minutes.
  TOLLGATE_SETTLEMENT_RETRY_MS: '2000',
  TOLLGATE_LEASE_SWEEP_MS: '1000',
};

export async function startMonitoringStack(): Promise<MonitoringStack> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'tollgate-monitoring-'));
  const redis = await startRedisServer();
  // Tracing on, towards a closed port: every export fails and its spans are counted as dropped.
  const collector = `http://127.0.0.1:${String(await freePort())}`;
  const saved: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries({
    ...ENVIRONMENT,
    REDIS_URL: redis.url,
    TOLLGATE_OTLP_ENDPOINT: collector,
  })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  let local: LocalProcess;
  try {
    local = await startLocalProcess(dataDirectory);
  } catch (error) {
    await redis.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
    throw error;
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  }
  const output = local.output();
  return {
    local,
    gatewayMetrics: hostPort(banner(output, 'gateway metrics')),
    operatorMetrics: hostPort(banner(output, 'operator metrics')),
    redis,
    stop: async () => {
      if (redis.process.exitCode === null) redis.process.kill('SIGCONT');
      await local.stop();
      await redis.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

export interface Providers {
  flaky: FakeProvider;
  slow: FakeProvider;
  closedPort: number;
  /** A notification receiver that refuses every delivery for good (410). */
  refusingReceiver: string;
  /** Deliveries the refusing receiver was sent. */
  refusedDeliveries(): number;
  close(): Promise<void>;
}

/**
 * The test's own upstreams: one that answers 529 (overloaded), one that streams slowly; and a
 * webhook receiver that answers 410 Gone, so that notifications to it are given up at once.
 */
export async function startTestProviders(): Promise<Providers> {
  const flaky = await startFakeProvider({ port: 0, credential: null });
  flaky.setBehaviour({ status: 529 });
  const slow = await startFakeProvider({ port: 0, credential: null, keepRequests: 1_000 });
  slow.setBehaviour({ chunks: 6, chunkGapMs: 700 });
  let refused = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      refused += 1;
      response.writeHead(410).end();
    });
  });
  await new Promise<void>((resolve) => {
    receiver.listen(0, '127.0.0.1', resolve);
  });
  const { port } = receiver.address() as AddressInfo;
  return {
    flaky,
    slow,
    closedPort: await freePort(),
    refusingReceiver: `http://127.0.0.1:${String(port)}/hooks`,
    refusedDeliveries: () => refused,
    close: async () => {
      await flaky.close();
      await slow.close();
      await new Promise<void>((resolve) => {
        receiver.close(() => {
          resolve();
        });
      });
    },
  };
}

/**
 * A Notifier in the demo namespace for the quota keys' 80 % and 100 % events, to the refusing
 * receiver: the operator delivers them and gives up (`outcome="failed"`).
 */
function refusedNotifier(receiverUrl: string): string {
  return [
    'apiVersion: v1',
    'kind: Secret',
    // Marked for notifiers: a Notifier reads no other Secret (docs/notifications.md).
    "metadata: {name: monitoring-hooks, namespace: demo, labels: {tollgate.dev/notifier-secret: 'true'}}",
    'stringData: {signingSecret: monitoring-signing-secret}',
    '---',
    'apiVersion: tollgate.dev/v1alpha1',
    'kind: Notifier',
    'metadata: {name: monitoring-quota, namespace: demo}',
    'spec:',
    '  webhook:',
    `    url: ${receiverUrl}`,
    '    signingSecretRef: {name: monitoring-hooks, key: signingSecret}',
    '  events:',
    '    keyWindows: {windows: [Quota], thresholds: [80, 100], keyNames: [monitoring-near, monitoring-full]}',
  ].join('\n');
}

function upstream(name: string, platform: string, baseURL: string, secret: string): string {
  return [
    'apiVersion: tollgate.dev/v1alpha1',
    'kind: Upstream',
    `metadata: {name: ${name}}`,
    'spec:',
    `  platform: ${platform}`,
    `  baseURL: ${baseURL}`,
    `  credentials: {type: APIKey, apiKey: {secretRef: {name: ${secret}, key: apiKey}}}`,
  ].join('\n');
}

function group(name: string, platform: string, refs: readonly string[]): string {
  const upstreamRefs = refs.map((ref, priority) => `{name: ${ref}, priority: ${priority}}`);
  return [
    'apiVersion: tollgate.dev/v1alpha1',
    'kind: Group',
    `metadata: {name: ${name}}`,
    `spec: {platform: ${platform}, upstreamRefs: [${upstreamRefs.join(', ')}]}`,
  ].join('\n');
}

export type KeyName =
  TrafficPlatform | 'flaky' | 'failover' | 'unreachable' | 'slow' | 'near' | 'full';

/** Group of each key (the demo world's groups are named after their platform). */
const KEY_GROUPS: Record<KeyName, string> = {
  anthropic: 'anthropic',
  openai: 'openai',
  gemini: 'gemini',
  antigravity: 'antigravity',
  flaky: 'flaky',
  failover: 'failover',
  unreachable: 'unreachable',
  slow: 'slow',
  near: 'anthropic',
  full: 'anthropic',
};

export async function createWorld(
  local: LocalProcess,
  providers: Providers,
): Promise<Record<KeyName, string>> {
  const manifests = [
    upstream('flaky', 'Anthropic', providers.flaky.url, 'demo-anthropic-credentials'),
    upstream(
      'unreachable',
      'Anthropic',
      `http://127.0.0.1:${providers.closedPort}`,
      'demo-anthropic-credentials',
    ),
    upstream('slow-openai', 'OpenAI', providers.slow.url, 'demo-openai-credentials'),
    group('flaky', 'Anthropic', ['flaky']),
    group('failover', 'Anthropic', ['flaky', 'demo-anthropic']),
    group('unreachable', 'Anthropic', ['unreachable']),
    group('slow', 'OpenAI', ['slow-openai']),
  ];
  await local.kubectl(['apply', '-f', '-'], manifests.join('\n---\n'));
  await local.kubectl(['apply', '-f', '-'], refusedNotifier(providers.refusingReceiver));
  const names = Object.keys(KEY_GROUPS) as KeyName[];
  const values = await Promise.all(
    names.map((name) => local.createKey({ name: `monitoring-${name}`, group: KEY_GROUPS[name] })),
  );
  await subscribeDemoAccount(local);
  return Object.fromEntries(names.map((name, index) => [name, values[index]])) as Record<
    KeyName,
    string
  >;
}

/**
 * The demo Account on a Plan with member limits, and the anthropic key owned by one person, so the
 * plan and member budget gauges (and the alerts reading them) have series. The caps are far above
 * the run's spend: the world's other rules are not changed.
 */
async function subscribeDemoAccount(local: LocalProcess): Promise<void> {
  const plan = [
    'apiVersion: tollgate.dev/v1alpha1',
    'kind: Plan',
    'metadata: {name: monitoring-plan}',
    "spec: {displayName: Monitoring, limits: {dailyUSD: '1000', monthlyUSD: '10000'}}",
  ].join('\n');
  await local.kubectl(['apply', '-f', '-'], plan);
  const subscription = {
    spec: {
      subscription: { planName: 'monitoring-plan', startTime: '2026-01-01T00:00:00Z' },
      memberLimits: { dailyUSD: '1000' },
    },
  };
  await local.kubectl([
    'patch',
    'account',
    'default',
    '-n',
    'demo',
    '--type',
    'merge',
    '-p',
    JSON.stringify(subscription),
  ]);
  await local.kubectl([
    'patch',
    'apikey',
    'monitoring-anthropic',
    '-n',
    'demo',
    '--type',
    'merge',
    '-p',
    JSON.stringify({ spec: { owner: 'monitoring-owner' } }),
  ]);
}

const PLATFORMS: readonly TrafficPlatform[] = ['anthropic', 'openai', 'gemini', 'antigravity'];

/** Answered calls on every platform, streamed and not. */
export async function answeredTraffic(
  gatewayUrl: string,
  keys: Record<KeyName, string>,
  rounds: number,
): Promise<number[]> {
  const calls = Array.from({ length: rounds }, () =>
    PLATFORMS.flatMap((platform) => [
      () => call(gatewayUrl, platform, keys[platform]),
      () => call(gatewayUrl, platform, keys[platform], { stream: true }),
    ]),
  ).flat();
  return callMany(calls);
}

/**
 * Refused calls (unknown key, wrong platform) and failed upstreams, in rounds with a scrape between
 * them (`betweenRounds`; default 1.5 s, more than the scrape interval): a labelled counter appears
 * with its first increment, which rate() cannot see, so each kind must also increase after
 * Prometheus has seen it.
 */
export async function refusedAndFailedTraffic(
  gatewayUrl: string,
  keys: Record<KeyName, string>,
  betweenRounds: () => Promise<unknown> = () => sleep(1_500),
): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    if (round > 0) await betweenRounds();
    const calls = [
      () => call(gatewayUrl, 'anthropic', 'tg-not-a-key'),
      () => call(gatewayUrl, 'openai', keys.anthropic),
      () => call(gatewayUrl, 'anthropic', keys.flaky),
      () => call(gatewayUrl, 'anthropic', keys.failover),
      () => call(gatewayUrl, 'anthropic', keys.unreachable),
      () => call(gatewayUrl, 'anthropic', keys.unreachable, { stream: true }),
    ];
    statuses.push(...(await callMany(calls)));
  }
  return statuses;
}

/**
 * One call each on `near` and `full`, then their quotas set so that `near` has used about 95% and
 * `full` all of it (the patch makes the operator read their usage at once); one more call on
 * `full`, which is refused.
 */
export async function bringKeysToQuota(
  local: LocalProcess,
  keys: Record<KeyName, string>,
): Promise<{ fullStatus: number }> {
  await call(local.gatewayUrl, 'anthropic', keys.near);
  await call(local.gatewayUrl, 'anthropic', keys.full);
  const near = await usedQuotaNano(local.gatewayUrl, keys.near);
  const full = await usedQuotaNano(local.gatewayUrl, keys.full);
  if (near <= 0 || full <= 0) throw new Error(`calls were not billed: near ${near}, full ${full}`);
  const patch = (name: string, quotaNano: number) =>
    local.kubectl([
      'patch',
      'apikey',
      name,
      '-n',
      'demo',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { limits: { quotaUSD: formatNanoAsUSD(quotaNano) } } }),
    ]);
  await patch('monitoring-near', Math.ceil(near / 0.95));
  await patch('monitoring-full', full);
  // The gateway sees the new quota once the operator has programmed it.
  const deadline = Date.now() + 20_000;
  let fullStatus = 0;
  while (Date.now() < deadline) {
    fullStatus = await call(local.gatewayUrl, 'anthropic', keys.full);
    if (fullStatus === 429) break;
    await sleep(200);
  }
  return { fullStatus };
}

/** Polls a metrics endpoint until its text matches; resolves false at the deadline. */
async function waitForMetric(
  hostPort: string,
  pattern: RegExp,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`http://${hostPort}/metrics`);
    if (pattern.test(await response.text())) return true;
    await sleep(250);
  }
  return false;
}

/**
 * The store goes away (SIGSTOP, so the clients time out) while two slow streams are open: they
 * end during the outage, their settlements fail and are handed over after the 2 s retry window;
 * calls made meanwhile are refused with TG_STORE_UNAVAILABLE; a key change meanwhile makes the
 * operator fail its reconcile. The store comes back once the gateway has handed the settlements
 * over (or after 20 s).
 */
export async function storeOutage(
  stack: MonitoringStack,
  providers: Providers,
  keys: Record<KeyName, string>,
): Promise<{ duringOutage: number[]; streams: number[]; handedOver: boolean }> {
  const gatewayUrl = stack.local.gatewayUrl;
  const streams = Promise.all([
    call(gatewayUrl, 'openai', keys.slow, { stream: true }),
    call(gatewayUrl, 'openai', keys.slow, { stream: true }),
  ]);
  // Both streams admitted (the slow provider has them) before the store goes away.
  const admitted = Date.now() + 10_000;
  while (providers.slow.requests.length < 2 && Date.now() < admitted) await sleep(50);
  stack.redis.process.kill('SIGSTOP');
  try {
    const duringOutage = await callMany(
      [
        () => call(gatewayUrl, 'anthropic', keys.anthropic),
        () => call(gatewayUrl, 'openai', keys.openai),
        () => call(gatewayUrl, 'gemini', keys.gemini),
        () => call(gatewayUrl, 'anthropic', keys.anthropic, { stream: true }),
      ],
      4,
    );
    await stack.local.kubectl([
      'annotate',
      'apikey',
      'monitoring-anthropic',
      '-n',
      'demo',
      '--overwrite',
      'monitoring.tollgate.dev/touched=during-outage',
    ]);
    const ended = await streams;
    // The streams' settlements time out (2 s each attempt) and are retried until the 2 s window
    // ends; the store comes back once the gateway has handed them over.
    const handedOver = await waitForMetric(
      stack.gatewayMetrics,
      /^tollgate_settlements_handed_over_total\{reason="retry_window_ended"\} [1-9]/m,
      20_000,
    );
    return { duringOutage, streams: ended, handedOver };
  } finally {
    stack.redis.process.kill('SIGCONT');
  }
}
