/**
 * `npx tsx bench/macro/probe-local-mode.ts [rates] [seconds] [--root DIR] [--redis] [--streamed] [--held-markers N] [--child-log FILE] [-- node flags]`:
 * `tollgate local` as `npm start` runs it (memory store and embedded PGlite ledger by default; with
 * `--redis`, a private Redis) under open loops of Chat Completions (non-streamed; with `--streamed`,
 * streams of 20 events), one per rate
 * (`200,500,1000` by default, `seconds` each, 10 by default). The local process is pinned to one
 * core, the bench's mock upstream and load generator to the other. Its key, Group and Upstream (at
 * the mock upstream) are applied with kubectl, as a user would. A 5 s closed-loop warm-up comes
 * first, and the first load starts once the recorder has written the warm-up's calls (the wait is
 * in the result as `warmUpDrainMs`). For each rate it prints the
 * latency percentiles, the failed calls, the process's CPU per call (every thread: the ledger's
 * worker too) and its event-loop delay over the loop (`tollgate_nodejs_eventloop_lag_*` scraped
 * before and after, less the 10 ms interval of prom-client's timer: how late the loop was). At the
 * end it stops the process and counts the records in its ledger: each answered call must be there
 * exactly once (it first waits, at most two minutes, for the recorder to
 * write them: the drain time is reported). `--root` runs another checkout's sources (a base
 * worktree, for before/after pairs). `--held-markers N` starts the process on a memory store that
 * already holds N settlement markers of the namespace (written as a version 2 `store.json`, which
 * every store since reads), as 15 minutes of traffic leave it: 180,000 at 200 calls/s. The
 * figures go to the raw result `bench/results/<date>T<time>-local-mode.json`
 * (write-bench-result.ts; `-local-mode-profiled.json` when the node flags hold `--cpu-prof`), with
 * each load's start and end on the monotonic clock (and the process's start: V8's `--trace-gc`
 * times count from it); the process's data folder is temporary. `--child-log FILE` copies every line
 * the process prints to FILE (for node flags that trace, such as `--trace-gc-nvp`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import { loopDelayMs } from '../support/read-loop-figures.js';
import { readProcessStats } from '../support/read-process-stats.js';
import { spawnBenchChild } from '../support/spawn-bench-child.js';
import { driveLoad, answeredCalls } from '../support/start-side-by-side-layout.js';
import { startBenchRun } from '../support/write-bench-result.js';
import { kubectl, probe } from './call-bulk-local.js';

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const own = dashes === -1 ? args : args.slice(0, dashes);
const nodeFlags = dashes === -1 ? [] : args.slice(dashes + 1);
const rootAt = own.indexOf('--root');
const root = rootAt === -1 ? fileURLToPath(new URL('../..', import.meta.url)) : own[rootAt + 1];
const childLogAt = own.indexOf('--child-log');
const childLog = childLogAt === -1 ? undefined : own[childLogAt + 1];
const positional = own.filter(
  (arg, index) =>
    !arg.startsWith('--') &&
    (rootAt === -1 || index !== rootAt + 1) &&
    (childLogAt === -1 || index !== childLogAt + 1) &&
    (!own.includes('--held-markers') || index !== own.indexOf('--held-markers') + 1),
);
const rates = (positional[0] ?? '200,500,1000').split(',').map(Number);
const seconds = Number(positional[1] ?? '10');
const useRedis = own.includes('--redis');
const heldAt = own.indexOf('--held-markers');
const heldMarkers = heldAt === -1 ? 0 : Number(own[heldAt + 1]);
const KEY = 'tg-probe-local-mode-key-0123456789';
const NAMESPACE = 'probe';

// Figures taken under V8's sampler are not local mode's: their raw result has a name of its own,
// which no summary reads (find-loop-stalls.ts reads it for the load's times).
const profiled = nodeFlags.some((flag) => flag.startsWith('--cpu-prof'));
const run = startBenchRun(
  profiled ? 'local-mode-profiled' : 'local-mode',
  'bench/macro/probe-local-mode.ts',
);
const figures: Record<string, unknown>[] = [];
const pinned = availableParallelism() >= 2;
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
say(
  `root ${resolve(root ?? '.')}, load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);

function world(upstreamUrl: string): string {
  const documents = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'probe-upstream', namespace: 'tollgate-system' },
      stringData: { apiKey: 'fake-upstream-key' },
    },
    {
      apiVersion: 'tollgate.dev/v1alpha1',
      kind: 'Upstream',
      metadata: { name: 'probe-openai' },
      spec: {
        platform: 'OpenAI',
        baseURL: upstreamUrl,
        chatCompletions: 'Native',
        credentials: {
          type: 'APIKey',
          apiKey: { secretRef: { name: 'probe-upstream', key: 'apiKey' } },
        },
      },
    },
    {
      apiVersion: 'tollgate.dev/v1alpha1',
      kind: 'Group',
      metadata: { name: 'probe-openai' },
      spec: {
        platform: 'OpenAI',
        upstreamRefs: [{ name: 'probe-openai', weight: 1, priority: 0 }],
      },
    },
    {
      apiVersion: 'tollgate.dev/v1alpha1',
      kind: 'Account',
      metadata: { name: 'default', namespace: NAMESPACE },
      spec: { displayName: 'Probe', creditUSD: '999999' },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'probe-key', namespace: NAMESPACE },
      stringData: { value: KEY },
    },
    {
      apiVersion: 'tollgate.dev/v1alpha1',
      kind: 'ApiKey',
      metadata: { name: 'probe', namespace: NAMESPACE },
      spec: { groupName: 'probe-openai', secretName: 'probe-key', secretKey: 'value' },
    },
  ];
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items: documents });
}

/** How late the event loop was (ms, the timer's interval taken off: `loopDelayMs`). */
function loopDelay(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of ['p50', 'p99', 'max', 'mean']) {
    const ms = loopDelayMs(text, name);
    if (ms !== null) out[name] = Number(ms.toFixed(1));
  }
  return out;
}

/** The longest the probe waits for the recorder to write every record after the load. */
const DRAIN_LIMIT_MS = 120_000;
/**
 * The closed-loop warm-up before the first load (16 callers). After 2 s the first load still ran on
 * code V8 had not finished optimizing (its CPU per call about a third above the next load's, its
 * p99 up to 86 ms where the next load's was 6); after 5 s it runs like the next.
 */
const WARM_UP_MS = 5_000;

/** One sample's value from the metrics text (0 when absent). */
function metricValue(text: string, name: string): number {
  const match = new RegExp(`^${name} (\\S+)`, 'm').exec(text);
  return match?.[1] === undefined ? 0 : Number(match[1]);
}

/** A version 2 `store.json` whose only namespace holds `count` unexpired settlement markers. */
function writeHeldMarkers(storeFolder: string, count: number): void {
  const map = (entries: unknown[] = []): { $map: unknown[] } => ({ $map: entries });
  const until = Date.now() + 15 * 60_000;
  const markers = Array.from({ length: count }, (_, index) => [`held-${index}`, until + index]);
  const namespace = {
    name: NAMESPACE,
    account: null,
    accountSpent: 0,
    accountReserved: 0,
    keys: map(),
    inFlight: map(),
    settled: map(markers),
    charged: map(),
    countersPresent: false,
    appended: 0,
  };
  const state = {
    keyPolicies: map(),
    groups: map(),
    upstreams: map(),
    upstreamSlots: map(),
    upstreamHealth: map(),
    upstreamRequests: map(),
    sessions: map(),
    namespaces: map([[NAMESPACE, namespace]]),
    restoreQueue: { $set: [] },
    policyMarker: null,
    policyReload: null,
  };
  mkdirSync(storeFolder, { recursive: true });
  writeFileSync(join(storeFolder, 'store.json'), JSON.stringify({ version: 2, state, queue: [] }));
}

const dataDirectory = mkdtempSync(join(tmpdir(), 'probe-local-'));
if (heldMarkers > 0) writeHeldMarkers(join(dataDirectory, 'store'), heldMarkers);
const mock = await spawnBenchChild({
  script: './serve-mock-upstream.ts',
  cpus: pinned ? '0' : null,
});
const loadgen = await spawnBenchChild({
  script: './serve-load-generator.ts',
  cpus: pinned ? '0' : null,
});
let redis: RedisServer | undefined;
if (useRedis) redis = await startRedisServer();
const main = join(resolve(root ?? '.'), 'bin/main.ts');
const nodeArgs = [...nodeFlags, '--import', 'tsx', main, 'local', '--data', dataDirectory];
const spawnedUs = Number(process.hrtime.bigint() / 1000n);
const child = spawn(
  pinned ? 'taskset' : process.execPath,
  [...(pinned ? ['-c', '1', process.execPath] : []), ...nodeArgs, '--port', '0'],
  {
    cwd: resolve(root ?? '.'),
    env: {
      ...process.env,
      TOLLGATE_LOG_FORMAT: 'json',
      ...(redis === undefined ? {} : { REDIS_URL: redis.url }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
process.once('exit', () => child.kill('SIGKILL'));
const banner: Record<string, string> = {};
const recent: string[] = [];
const onLine = (line: string): void => {
  if (childLog !== undefined) appendFileSync(childLog, `${line}\n`);
  recent.push(line);
  if (recent.length > 30) recent.shift();
  for (const label of ['gateway', 'gateway metrics', 'kubeconfig']) {
    const match = new RegExp(`^\\s+${label}:\\s+(\\S+)`).exec(line);
    if (match?.[1] !== undefined) banner[label] = match[1];
  }
};
createInterface({ input: child.stdout }).on('line', onLine);
createInterface({ input: child.stderr }).on('line', onLine);
const started = Date.now();
while (banner.kubeconfig === undefined) {
  if (child.exitCode !== null || Date.now() - started > 120_000) {
    throw new Error(`tollgate local did not start:\n${recent.join('\n')}`);
  }
  await new Promise((done) => setTimeout(done, 100));
}
const gatewayUrl = banner.gateway ?? '';
const metricsUrl = banner['gateway metrics'] ?? '';
const pid = child.pid ?? 0;
await kubectl(banner.kubeconfig, ['apply', '-f', '-'], { input: world(String(mock.ready.url)) });
const until = Date.now() + 30_000;
for (
  let answer = await probe(gatewayUrl, KEY);
  answer !== 'ok';
  answer = await probe(gatewayUrl, KEY)
) {
  if (Date.now() > until) throw new Error(`the probe key was never admitted: ${answer}`);
  await new Promise((done) => setTimeout(done, 200));
}
const kind = { platform: 'openai' as const, stream: own.includes('--streamed'), chat: true };
const credentials = { anthropic: KEY, openai: KEY, gemini: KEY };
const drive = (load: Record<string, unknown>) =>
  driveLoad(loadgen, { url: gatewayUrl, kind, credentials, load });
let answered = 1;
let failed = 0;
let drainMs = 0;
let warmUpDrainMs = 0;
/**
 * Waits until the recorder has inserted a record for every call answered so far (the metrics
 * page's counter; failed calls may leave records too) with nothing waiting, or at most two
 * minutes; returns how long that took.
 */
const waitForRecorder = async (): Promise<number> => {
  const started = Date.now();
  for (;;) {
    const text = await fetch(metricsUrl).then((response) => response.text());
    const inserted = metricValue(text, 'tollgate_recorder_records_inserted_total');
    const backlog = metricValue(text, 'tollgate_recorder_backlog_records');
    if ((inserted >= answered && backlog === 0) || Date.now() - started > DRAIN_LIMIT_MS) break;
    await new Promise((done) => setTimeout(done, 250));
  }
  return Date.now() - started;
};
try {
  answered += answeredCalls(
    await drive({ mode: 'closed', concurrency: 16, durationMs: WARM_UP_MS }),
  );
  // The recorder writes the warm-up's calls for seconds after it: the first load starts once it
  // has, as under steady traffic rather than right after a burst.
  warmUpDrainMs = await waitForRecorder();
  say(`recorder wrote the warm-up's calls in ${(warmUpDrainMs / 1000).toFixed(1)} s`);
  for (const rate of rates) {
    await fetch(metricsUrl).then((response) => response.text());
    const before = readProcessStats(pid).cpuSeconds;
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const result = await drive({ mode: 'open', rate, durationMs: seconds * 1000 });
    const toUs = Number(process.hrtime.bigint() / 1000n);
    const cpu = readProcessStats(pid).cpuSeconds - before;
    const delay = loopDelay(await fetch(metricsUrl).then((response) => response.text()));
    const latencies = Object.values(result.latencies).flat();
    const summary = summarizeLatencies(latencies);
    const errors = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
    answered += latencies.length;
    failed += errors;
    figures.push({
      rate,
      answered: latencies.length,
      failed: errors,
      latencyMs: {
        p50: Number(summary.p50.toFixed(2)),
        p99: Number(summary.p99.toFixed(2)),
        max: Number(summary.max.toFixed(2)),
      },
      cpuMsPerCall: Number(((cpu * 1000) / Math.max(1, result.sent)).toFixed(3)),
      eventLoopDelayMs: delay,
      // The load's start and end on the monotonic clock, in µs: a V8 profile's own clock.
      loadWindowUs: [fromUs, toUs],
    });
    say(
      `${String(rate)}/s for ${String(seconds)} s: ${String(latencies.length)} answered, ` +
        `${String(errors)} failed ${JSON.stringify(result.errors)}, p50 ${summary.p50.toFixed(2)} ms, ` +
        `p99 ${summary.p99.toFixed(2)} ms, max ${summary.max.toFixed(2)} ms, ` +
        `CPU ${((cpu * 1000) / Math.max(1, result.sent)).toFixed(3)} ms per call, ` +
        `event-loop delay (ms) ${JSON.stringify(delay)}`,
    );
  }
  // Let the recorder write every call, then stop cleanly. The drain time is part of the result.
  drainMs = await waitForRecorder();
  say(`recorder drained in ${(drainMs / 1000).toFixed(1)} s`);
} finally {
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  const grace = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(grace);
  await loadgen.ask({ type: 'stop' }, 5_000).catch(() => undefined);
  await loadgen.stop();
  await mock.stop();
  await redis?.stop();
}
const ledger = new PGlite(join(dataDirectory, 'ledger'));
const [counts] = (
  await ledger.query<{ records: number; ids: number }>(
    `SELECT count(*)::int AS records, count(DISTINCT request_id)::int AS ids
     FROM usage_records WHERE namespace = $1 AND status = 200`,
    [NAMESPACE],
  )
).rows;
await ledger.close();
rmSync(dataDirectory, { recursive: true, force: true });
run.write({
  parameters: {
    rates,
    seconds,
    store: useRedis ? 'redis' : 'memory',
    streamed: kind.stream,
    heldMarkers,
    ...(rootAt === -1 ? {} : { root: resolve(root ?? '.') }),
  },
  spawnedUs,
  rates: figures,
  ledger: {
    records: counts?.records,
    distinctIds: counts?.ids,
    answered,
    failed,
    drainMs,
    warmUpDrainMs,
  },
});
say(
  `ledger: ${String(counts?.records)} records of 200s (${String(counts?.ids)} distinct ids) for ` +
    `${String(answered)} calls answered 200; ${String(failed)} failed in all`,
);
