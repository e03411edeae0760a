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
import { describeBenchFacts } from '../support/describe-bench-facts.js';
import { driveChatCompletions, readChatKindName } from '../support/drive-chat-completions.js';
import { readProcessStats } from '../support/read-process-stats.js';
import { startDeployedTarget } from '../support/start-deployed-target.js';
import { startSideBySideLayout } from '../support/start-side-by-side-layout.js';
import { writeProfileReport } from '../support/write-profile-report.js';
import { summarizeGcTrace } from './summarize-gc-trace.js';

const [label = 'run', kindText, secondsText = '20', rateText = '200'] = process.argv.slice(2);
const kindName = readChatKindName(kindText, 'streamed');
const seconds = Number(secondsText);
const rate = Number(rateText);

const facts = describeBenchFacts('bench/profile/trace-gc.ts');
const layout = await startSideBySideLayout({});
const system = await startDeployedTarget({
  upstreamUrl: layout.environment.providerUrl,
  redisUrl: layout.redisServer.url,
  cpus: layout.environment.gatewayCpus,
  sidecarCpus: layout.pinning?.rest ?? null,
  // V8 refuses `--trace-gc-nvp` in NODE_OPTIONS; a module imported first sets it.
  extraGatewayNodeFlags: [
    "--import=data:text/javascript,import{setFlagsFromString}from'node:v8';setFlagsFromString('--trace-gc-nvp')",
  ],
});
const gatewayLog = system.gatewayLog ?? ((): string[] => []);
const gatewayPid = system.pids.gateway ?? 0;
const drive = driveChatCompletions(layout, system, kindName);
try {
  await drive.closed(16, 3_000);
  await system.drained();
  const skip = gatewayLog().length;
  const before = readProcessStats(gatewayPid);
  const calls = await drive.open(rate, seconds * 1000);
  const after = readProcessStats(gatewayPid);
  const summary = summarizeGcTrace(gatewayLog().slice(skip), calls);
  const cpuMsPerCall =
    calls === 0 ? null : Math.round(((after.cpuSeconds - before.cpuSeconds) / calls) * 1e6) / 1e3;
  writeProfileReport(`gc-${label}-${kindName}`, {
    facts,
    date: new Date().toISOString(),
    label,
    kind: kindName,
    rate,
    seconds,
    loadAverageAtStart: facts.loadAverageAtStart,
    calls,
    gatewayCpuMsPerCall: cpuMsPerCall,
    summary,
  });
  process.stdout.write(`${JSON.stringify({ calls, cpuMsPerCall, ...summary }, null, 2)}\n`);
} finally {
  await system.stop();
  await layout.stop();
}
