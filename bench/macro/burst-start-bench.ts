/**
 * `npx tsx bench/macro/burst-start-bench.ts [streams] [prompt bytes] [--cpu-prof] [-- node flags]`: a
 * burst of large streams started at once, against local mode as `npm start` runs it (`node bin/tollgate.js local`
 * from the compiled build, the simulator in its process, a fresh data folder with the demo world),
 * while a probe client (a process of its own, serve-burst-probe.ts) sends a small call every 20 ms.
 * Defaults: 200 streamed Anthropic calls, each with a prompt of 1,000,000 bytes.
 *
 * Prints one JSON line: the probes' latency before the burst and while it runs (p50, p99, max), the
 * local process's event-loop delay (the largest stall in each 100 ms slice, measured inside it by
 * the preloaded `watch-burst-process.js`), both per 500 ms from the burst's start, and the burst's
 * streams (time to first byte, completion), and writes it as the raw result
 * `bench/results/<date>T<time>-burst-start.json` (write-bench-result.ts). With `--cpu-prof` the
 * local process's CPU is profiled over the same window: the summary goes to stderr, and the
 * profile and the process's access log are kept (their folder is printed). Node flags after `--` go
 * to the local process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import { spawnBenchChild } from '../support/spawn-bench-child.js';
import { startBenchRun } from '../support/write-bench-result.js';
import { summarizeCpuProfile, type CpuProfile } from '../profile/summarize-cpu-profile.js';

const separator = process.argv.indexOf('--', 2);
const args = process.argv.slice(2, separator === -1 ? undefined : separator);
/** Node flags for the local process (e.g. `--trace-gc`: its lines go to the kept access log). */
const nodeFlags = separator === -1 ? [] : process.argv.slice(separator + 1);
const profile = args.includes('--cpu-prof');
const [streamsText = '200', promptText = '1000000'] = args.filter((arg) => !arg.startsWith('--'));
const STREAMS = Number(streamsText);
const PROMPT_BYTES = Number(promptText);
const PROBE_EVERY_MS = 20;
const QUIET_MS = 1_500;
const SLICE_MS = 500;

const run = startBenchRun('burst-start', 'bench/macro/burst-start-bench.ts');
const data = mkdtempSync(join(tmpdir(), 'tollgate-burst-'));
const watch = join(data, 'watch');
mkdirSync(watch);

const local = spawn(
  process.execPath,
  [
    ...nodeFlags,
    ...[
      '--import',
      './bench/macro/watch-burst-process.js',
      'bin/tollgate.js',
      'local',
      '--data',
      data,
    ],
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      TOLLGATE_PORT: '0',
      TOLLGATE_BENCH_WATCH_DIR: watch,
      TOLLGATE_BENCH_CPU_PROFILE: profile ? '1' : '0',
    },
  },
);
process.once('exit', () => local.kill('SIGKILL'));

/** Local mode's stdout: its banner, then its access log (kept for `--log`). */
const stdoutLines: string[] = [];
createInterface({ input: local.stdout }).on('line', (line) => stdoutLines.push(line));

/** The banner's `gateway:` and `kubeconfig:` lines. */
async function readBanner(): Promise<{ gatewayUrl: string; kubeconfig: string }> {
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const found: Record<string, string> = {};
    for (const line of stdoutLines) {
      const match = /^\s+(gateway|kubeconfig):\s+(\S+)/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) found[match[1]] ??= match[2];
    }
    if (found.gateway !== undefined && found.kubeconfig !== undefined) {
      return { gatewayUrl: found.gateway, kubeconfig: found.kubeconfig };
    }
    if (local.exitCode !== null) break;
    await sleep(100);
  }
  throw new Error('tollgate local printed no banner');
}

function kubectl(kubeconfig: string, kubectlArgs: string[], input?: string): string {
  const result = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...kubectlArgs], {
    input,
    encoding: 'utf8',
  });
  // A `get` is polled until it answers; any other command's failure is shown.
  if (result.status !== 0 && kubectlArgs[0] !== 'get')
    process.stderr.write(`kubectl ${kubectlArgs.join(' ')}: ${result.stderr}`);
  return result.status === 0 ? result.stdout : '';
}

/** The demo Account's credit raised, so the burst's reservations (about 0.75 USD each) all fit. */
async function raiseDemoCredit(kubeconfig: string): Promise<void> {
  const patch = JSON.stringify({ spec: { creditUSD: '100000' } });
  kubectl(kubeconfig, [
    'patch',
    'account',
    'default',
    '-n',
    'demo',
    '--type',
    'merge',
    '-p',
    patch,
  ]);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const [generation, observed] = kubectl(kubeconfig, [
      ...['get', 'account', 'default', '-n', 'demo'],
      ...['-o', 'jsonpath={.metadata.generation} {.status.observedGeneration}'],
    ]).split(' ');
    if (generation !== undefined && generation !== '1' && generation === observed) return;
    await sleep(100);
  }
  throw new Error('the demo Account kept its credit');
}

async function createDemoKey(kubeconfig: string): Promise<string> {
  const manifest = [
    'apiVersion: tollgate.dev/v1alpha1',
    'kind: ApiKey',
    'metadata: {name: burst, namespace: demo}',
    'spec: {groupName: anthropic}',
  ].join('\n');
  kubectl(kubeconfig, ['apply', '-f', '-'], manifest);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const encoded = kubectl(kubeconfig, [
      ...['get', 'secret', 'burst-key', '-n', 'demo'],
      ...['-o', 'jsonpath={.data.apiKey}'],
    ]);
    if (encoded !== '') return Buffer.from(encoded, 'base64').toString('utf8');
    await sleep(100);
  }
  throw new Error('the demo key got no Secret');
}

// No bound on the connections: a stream never waits for a free one in this process.
const setupAgent = new Agent();
const burstAgent = new Agent();
const prober = await spawnBenchChild({
  script: new URL('./serve-burst-probe.ts', import.meta.url).href,
});

interface Sample {
  at: number;
  ms: number;
  status: number;
}

async function probeOnce(url: string, key: string): Promise<Sample> {
  const at = Date.now();
  const response = await request(`${url}/v1/messages`, {
    method: 'POST',
    dispatcher: setupAgent,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: '{"model":"claude-sonnet-4-6","max_tokens":16,"messages":[{"role":"user","content":"hi"}]}',
  });
  await response.body.text();
  return { at, ms: Date.now() - at, status: response.statusCode };
}

/** Distinct large prompts (text, as a long conversation would carry), built before the burst. */
function burstBodies(): Buffer[] {
  const words = 'the gateway meters every stream it forwards and bills what was delivered ';
  const filler = words.repeat(Math.ceil(PROMPT_BYTES / words.length)).slice(0, PROMPT_BYTES);
  return Array.from({ length: STREAMS }, (_, index) =>
    Buffer.from(
      JSON.stringify({
        model: 'claude-sonnet-4-6',
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: `${index} ${filler}` }],
      }),
    ),
  );
}

interface StreamResult {
  firstByteMs: number;
  doneMs: number;
  status: number;
}

async function burstStream(options: {
  url: string;
  key: string;
  body: Buffer;
  start: number;
}): Promise<StreamResult> {
  const response = await request(`${options.url}/v1/messages`, {
    method: 'POST',
    dispatcher: burstAgent,
    headers: { 'content-type': 'application/json', 'x-api-key': options.key },
    body: options.body,
  });
  let firstByteMs = -1;
  for await (const chunk of response.body) {
    if (firstByteMs < 0 && (chunk as Buffer).length > 0) firstByteMs = Date.now() - options.start;
  }
  return { firstByteMs, doneMs: Date.now() - options.start, status: response.statusCode };
}

const round = (value: number): number => Math.round(value * 10) / 10;

function latency(samples: readonly Sample[]) {
  const summary = summarizeLatencies(samples.map((sample) => sample.ms));
  return { count: summary.count, p50: summary.p50, p99: summary.p99, max: summary.max };
}

try {
  const { gatewayUrl, kubeconfig } = await readBanner();
  await raiseDemoCredit(kubeconfig);
  const key = await createDemoKey(kubeconfig);
  for (let attempt = 0; ; attempt += 1) {
    const ready = await probeOnce(gatewayUrl, key).catch(() => null);
    if (ready?.status === 200) break;
    if (attempt > 300)
      throw new Error(`the demo key is not served (${ready?.status ?? 'no answer'})`);
    await sleep(100);
  }
  const bodies = burstBodies();
  // The client processes' own stalls, so a probe's latency is not mistaken for the gateway's.
  const ownDelay = monitorEventLoopDelay({ resolution: 5 });
  ownDelay.enable();
  local.kill('SIGUSR2');
  await sleep(200);
  await prober.ask({ type: 'start', url: gatewayUrl, key, everyMs: PROBE_EVERY_MS }, 10_000);
  await sleep(QUIET_MS);
  const start = Date.now();
  const streams = await Promise.all(
    bodies.map((body) => burstStream({ url: gatewayUrl, key, body, start })),
  );
  const burstEnd = Date.now();
  await sleep(QUIET_MS);
  const probed = (await prober.ask({ type: 'stop' }, 120_000)) as {
    samples: Sample[];
    ownLoopDelayMaxMs: number;
  };
  const samples = probed.samples;
  ownDelay.disable();
  local.kill('SIGUSR2');
  while (!existsSync(join(watch, 'done'))) await sleep(100);

  const slices = JSON.parse(readFileSync(join(watch, 'loop-delay.json'), 'utf8')) as {
    at: number;
    maxMs: number;
  }[];
  const during = (at: number): boolean => at >= start && at <= burstEnd;
  const timeline: { fromMs: number; probeMaxMs: number; loopDelayMaxMs: number }[] = [];
  for (let from = 0; start + from <= burstEnd; from += SLICE_MS) {
    const inSlice = (at: number): boolean => at >= start + from && at < start + from + SLICE_MS;
    timeline.push({
      fromMs: from,
      probeMaxMs: Math.max(0, ...samples.filter((s) => inSlice(s.at)).map((s) => s.ms)),
      // A slice's stall is reported when it ends: the next 100 ms slice carries it.
      loopDelayMaxMs: Math.max(
        0,
        ...slices.filter((s) => inSlice(s.at - 100)).map((slice) => slice.maxMs),
      ),
    });
  }
  const firstBytes = summarizeLatencies(streams.map((stream) => stream.firstByteMs));
  const result = {
    streams: STREAMS,
    promptBytes: PROMPT_BYTES,
    burstMs: burstEnd - start,
    streamStatuses: [...new Set(streams.map((stream) => stream.status))],
    streamFirstByteMs: { p50: firstBytes.p50, max: firstBytes.max },
    probesBefore: latency(samples.filter((sample) => sample.at < start)),
    probesDuringBurst: latency(samples.filter((sample) => during(sample.at))),
    probeErrors: samples.filter((sample) => sample.status !== 200).length,
    loopDelayMaxMs: {
      before: Math.max(0, ...slices.filter((s) => s.at < start).map((s) => s.maxMs)),
      duringBurst: Math.max(0, ...slices.filter((s) => during(s.at)).map((s) => s.maxMs)),
    },
    clientLoopDelayMaxMs: {
      burst: round(ownDelay.max / 1e6),
      probe: round(probed.ownLoopDelayMaxMs),
    },
    timeline,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  run.write(result);
  if (profile) {
    writeFileSync(join(watch, 'local.log'), `${stdoutLines.join('\n')}\n`);
    const path = join(watch, 'burst.cpuprofile');
    const summary = summarizeCpuProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, 25);
    const line = (share: { name: string; ms: number }): string =>
      `  ${round(share.ms).toString().padStart(8)} ms  ${share.name}`;
    process.stderr.write(
      [
        `cpu profile of the window (${round(summary.busyMs)} ms busy of ${round(summary.totalMs)}): ${path}`,
        'areas:',
        ...summary.areas.map(line),
        'functions (self time):',
        ...summary.functions.map(line),
        '',
      ].join('\n'),
    );
  }
} finally {
  const exited = once(local, 'exit');
  local.kill('SIGTERM');
  await exited;
  await prober.stop();
  await Promise.all([setupAgent.close(), burstAgent.close()]);
  if (!profile) rmSync(data, { recursive: true, force: true });
}
