/**
 * Child process, scenarios C and D: Tollgate itself, `build()` on the memory store or on Redis,
 * with the bench's upstreams, account and keys written through the store's writer API (as the
 * operator would). `--workers N` runs N cluster workers on one port (`gateway/run-gateway-workers`).
 * Reads its settings from the JSON file named by argv[2]; SIGTERM drains and exits (so
 * `--cpu-prof` gets written). The gateway runs from the compiled build (`dist/`, rebuilt first when
 * stale), as it does in production; `compiled: false` runs it from the sources through tsx.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureFreshBuild } from '../../bin/ensure-fresh-build.js';
import type * as AppModule from '../../gateway/app.js';
import type * as ConfigModule from '../../gateway/gateway-config.js';
import type * as WorkersModule from '../../gateway/run-gateway-workers.js';
import type * as StoreModule from '../../store/create-store.js';
import type * as HashModule from '../../store/hash-key-value.js';
import type { BenchCredentials } from './describe-bench-requests.js';
import { answerProfileRequests } from '../profile/record-cpu-profile.js';
import { answerAllocationRequests } from '../profile/record-heap-sampling.js';
import { answerLoopDelayRequests, recordCallDuration } from '../profile/record-loop-delay.js';
import { seedBenchStore } from './seed-bench-store.js';

export interface BenchGatewaySettings {
  store: 'memory' | 'redis';
  redisUrl: string;
  redisPrefix: string;
  providerUrl: string;
  port: number;
  workers: number;
  keys: BenchCredentials;
  pepperHex: string;
  credentialKeyHex: string;
  /**
   * The side-by-side bench: every admission feature set (quota and the three windows, an address
   * allow-list, key and account concurrency, an account balance) and OpenAI Chat Completions
   * forwarded natively, as to a real OpenAI upstream.
   */
  allFeatures?: boolean;
  /** Run the compiled build (default) or the sources. */
  compiled?: boolean;
  /** Tracing on, every call sampled, exported to this OTLP/HTTP sink (compare-tracing-cost.ts). */
  otlpEndpoint?: string;
}

const settings = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BenchGatewaySettings;

const root = new URL('../../', import.meta.url);
const compiled = settings.compiled !== false;
if (compiled && cluster.isPrimary) ensureFreshBuild(fileURLToPath(root));
const from = (path: string): string => new URL(`${compiled ? 'dist/' : ''}${path}`, root).href;
const { build } = (await import(from('gateway/app.js'))) as typeof AppModule;
const { createAppConfig } = (await import(
  from('gateway/gateway-config.js')
)) as typeof ConfigModule;
const { runInWorkers } = (await import(
  from('gateway/run-gateway-workers.js')
)) as typeof WorkersModule;
const { createStore } = (await import(from('store/create-store.js'))) as typeof StoreModule;
const { hashKeyValue } = (await import(from('store/hash-key-value.js'))) as typeof HashModule;

async function serve(): Promise<void> {
  const secrets = {
    pepper: Buffer.from(settings.pepperHex, 'hex'),
    credentialKey: Buffer.from(settings.credentialKeyHex, 'hex'),
  };
  const store = await createStore(
    settings.store === 'redis' ? { redisUrl: settings.redisUrl, prefix: settings.redisPrefix } : {},
  );
  await seedBenchStore(store, {
    secrets,
    providerUrl: settings.providerUrl,
    keys: settings.keys,
    allFeatures: settings.allFeatures === true,
    hashKeyValue,
  });
  const app = build({
    store,
    // `warn` unless TOLLGATE_BENCH_LOG_LEVEL says otherwise (`info` is what the chart runs: one
    // access log line per call).
    config: createAppConfig(secrets, {
      logLevel: (process.env.TOLLGATE_BENCH_LOG_LEVEL ??
        'warn') as ConfigModule.AppConfig['logLevel'],
      leaseMs: 60_000,
      ...(settings.otlpEndpoint === undefined
        ? {}
        : { otlpEndpoint: settings.otlpEndpoint, traceSampleRatio: 1 }),
    }),
  });
  // Each call's duration inside the gateway, for `bench/macro/probe-tail.ts` only (not in CPU figures).
  if (process.env.TOLLGATE_BENCH_RECORD_CALLS === '1') {
    app.addHook('onResponse', (request, reply, done) => {
      recordCallDuration(reply.elapsedTime, request.tollgate.attempts?.timeToFirstByteMs ?? null);
      done();
    });
  }
  await app.listen({ port: settings.port, host: '127.0.0.1' });
  if (settings.workers <= 1) {
    answerProfileRequests();
    answerAllocationRequests();
    answerLoopDelayRequests();
    process.send?.({ type: 'ready' });
  }
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
    process.once('disconnect', resolve);
  });
  app.server.closeAllConnections();
  await app.close();
  await store.close();
}

if (settings.workers > 1 && cluster.isPrimary) {
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
await runInWorkers({
  workers: settings.workers,
  start: serve,
  onListening: () => process.send?.({ type: 'ready' }),
});
process.exit(0);
