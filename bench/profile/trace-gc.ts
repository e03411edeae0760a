/**
 * `npx tsx bench/profile/trace-gc.ts <label> [non-streamed|streamed] [seconds] [rate]`: what the
 * deployed gateway's garbage collector does per call. Target E of the side-by-side bench (the
 * built `tollgate gateway` with the chart's node flags, its operator and recorder on the same Redis
 * and PostgreSQL) is started with `--trace-gc-nvp` (set by a module it imports first), warmed up for 3 s, then driven with an
 * open loop of Chat Completions calls at `rate` per second (default 200). V8's line per collection
 * in the gateway's log gives, over the measured window: scavenges, their interval and pause,
 * bytes each one kept in the young generation (`new_space_survived`) and moved to the old one
 * (`promoted`), per scavenge and per call, and the mark-compact collections. Byte counts hardly
 * move with the machine's load; pauses and intervals do. Writes
 * `bench/results/profiles/gc-<label>-<kind>.json` and prints the summary.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';
import { readProcessStats } from '../support/read-process-stats.js';
import { startDeployedTarget } from '../support/start-deployed-target.js';
import {
  answeredCalls,
  driveLoad,
  startSideBySideLayout,
} from '../support/start-side-by-side-layout.js';
import { summarizeGcTrace } from './summarize-gc-trace.js';

const [label = 'run', kindText, secondsText = '20', rateText = '200'] = process.argv.slice(2);
const kindName = kindText === 'non-streamed' ? 'non-streamed' : 'streamed';
const seconds = Number(secondsText);
const rate = Number(rateText);
const kind: BenchRequestKind = { platform: 'openai', stream: kindName === 'streamed', chat: true };

const load = loadavg().map((value) => Math.round(value * 100) / 100);
const facts = describeBenchFacts('bench/profile/trace-gc.ts');
const layout = await startSideBySideLayout({});
const system = await startDeployedTarget({
  upstreamUrl: layout.environment.providerUrl,
  redisUrl: layout.redisServer.url,
  cpus: layout.environment.gatewayCpus,
  // V8 refuses `--trace-gc-nvp` in NODE_OPTIONS; a module imported first sets it.
  extraGatewayNodeFlags: [
    "--import=data:text/javascript,import{setFlagsFromString}from'node:v8';setFlagsFromString('--trace-gc-nvp')",
  ],
});
const gatewayLog = system.gatewayLog ?? ((): string[] => []);
const gatewayPid = system.pids.gateway ?? 0;
const drive = (durationMs: number, mode: 'closed' | 'open') =>
  driveLoad(layout.loadgen, {
    url: system.url,
    kind,
    credentials: system.credentials,
    load: mode === 'closed' ? { mode, concurrency: 16, durationMs } : { mode, rate, durationMs },
  });
try {
  await drive(3_000, 'closed');
  await system.drained();
  const skip = gatewayLog().length;
  const before = readProcessStats(gatewayPid);
  const calls = answeredCalls(await drive(seconds * 1000, 'open'));
  const after = readProcessStats(gatewayPid);
  const summary = summarizeGcTrace(gatewayLog().slice(skip), calls);
  const cpuMsPerCall =
    calls === 0 ? null : Math.round(((after.cpuSeconds - before.cpuSeconds) / calls) * 1e6) / 1e3;
  const report = {
    facts,
    date: new Date().toISOString(),
    label,
    kind: kindName,
    rate,
    seconds,
    loadAverageAtStart: load,
    calls,
    gatewayCpuMsPerCall: cpuMsPerCall,
    summary,
  };
  const folder = fileURLToPath(new URL('../results/profiles/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, `gc-${label}-${kindName}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  process.stdout.write(`${JSON.stringify({ calls, cpuMsPerCall, ...summary }, null, 2)}\n`);
} finally {
  await system.stop();
  await layout.stop();
}
