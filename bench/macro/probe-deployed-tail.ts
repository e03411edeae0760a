/**
 * `npx tsx bench/macro/probe-deployed-tail.ts [rate] [seconds] [non-streamed|streamed] [--strace]`:
 * target E of the side-by-side bench (`tollgate gateway` from the build with the chart's node
 * flags, operator, recorder, PostgreSQL, same Redis; `start-deployed-target.ts`) under an open loop
 * of Chat Completions calls at `rate` per second. Prints what hardly moves with the machine's load,
 * per call: the gateway's CPU (user and system), its voluntary and involuntary context switches,
 * the recorder's and PostgreSQL's CPU and the Redis commands per call (once the recorder has
 * drained the loop's records), with `--strace` its system calls by name (`strace -c -f` attached for the loop; strace slows the
 * process, so the CPU and latency figures of such a run are not comparable), and its GC pauses and
 * event-loop delay over the loop, then the latency percentiles. The environment variables of
 * `start-deployed-target.ts` apply (`TOLLGATE_BENCH_GATEWAY_NODE_ARGS` and so on). Nothing is
 * written.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { parseCpuSeconds, parseCpuSplit } from '../support/read-process-stats.js';
import { countCommands, parseCommandStats } from '../support/read-redis-commandstats.js';
import { Redis } from 'ioredis';
import { loopFiguresBetween } from '../support/read-loop-figures.js';
import type { LoadResult } from '../support/run-load-modes.js';
import { startDeployedTarget } from '../support/start-deployed-target.js';
import { driveLoad, startSideBySideLayout } from '../support/start-side-by-side-layout.js';

const args = process.argv.slice(2).filter((one) => !one.startsWith('--'));
const [rateText = '500', secondsText = '8', kindText = 'non-streamed'] = args;
const withStrace = process.argv.includes('--strace');
const rate = Number(rateText);
const seconds = Number(secondsText);
const kind: BenchRequestKind = { platform: 'openai', stream: kindText === 'streamed', chat: true };

/** Context switches of every thread of a process (`/proc/<pid>/task/* /status`). */
function contextSwitches(pid: number): { voluntary: number; involuntary: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return {
    voluntary: field('voluntary_ctxt_switches'),
    involuntary: field('nonvoluntary_ctxt_switches'),
  };
}

process.stdout.write(
  `load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}\n`,
);
const layout = await startSideBySideLayout();
const target = await startDeployedTarget({
  upstreamUrl: layout.environment.providerUrl,
  redisUrl: layout.redisServer.url,
  cpus: layout.environment.gatewayCpus,
  sidecarCpus: layout.pinning?.rest ?? null,
});
const gatewayPid = target.pids.gateway ?? 0;
const redis = new Redis(layout.redisServer.url);
/** CPU seconds of the recorder and of the PostgreSQL backends of the bench's database. */
async function ledgerCpu(): Promise<{ recorder: number; postgres: number }> {
  const seconds = (pid: number): number => {
    try {
      return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return 0;
    }
  };
  let postgres = 0;
  for (const pid of (await target.postgresPids?.()) ?? []) postgres += seconds(pid);
  return { recorder: seconds(target.pids.recorder ?? 0), postgres };
}
const drive = (load: Record<string, unknown>): Promise<LoadResult> =>
  driveLoad(layout.loadgen, { url: target.url, kind, credentials: target.credentials, load });
try {
  await drive({ mode: 'closed', concurrency: 16, durationMs: 1_000 });
  await drive({ mode: 'open', rate, durationMs: 2_000 });
  await target.drained();
  const metricsUrl = target.metricsUrl ?? '';
  const startPage = await (await fetch(metricsUrl)).text();
  const cpuBefore = parseCpuSplit(readFileSync(`/proc/${gatewayPid}/stat`, 'utf8'));
  const switchesBefore = contextSwitches(gatewayPid);
  const ledgerBefore = await ledgerCpu();
  await redis.config('RESETSTAT');
  let straceText = '';
  const strace = withStrace
    ? spawn('strace', ['-c', '-f', '-p', String(gatewayPid)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    : null;
  strace?.stderr.on('data', (chunk: Buffer) => {
    straceText += chunk.toString();
  });
  if (strace !== null) await new Promise((resolve) => setTimeout(resolve, 500));
  const result = await drive({ mode: 'open', rate, durationMs: seconds * 1000 });
  if (strace !== null) {
    const ended = new Promise((resolve) => strace.once('exit', resolve));
    strace.kill('SIGINT');
    await ended;
  }
  const cpuAfter = parseCpuSplit(readFileSync(`/proc/${gatewayPid}/stat`, 'utf8'));
  const switchesAfter = contextSwitches(gatewayPid);
  // The recorder's share: what it did for the loop's calls, so the window ends once it drained.
  await target.drained();
  const ledgerAfter = await ledgerCpu();
  const commands = countCommands(parseCommandStats(await redis.info('commandstats')));
  const endPage = await (await fetch(metricsUrl)).text();
  const latencies = Object.values(result.latencies).flat();
  const calls = latencies.length;
  const per = (value: number): string => (value / Math.max(1, calls)).toFixed(3);
  process.stdout.write(
    `--- gateway per call: CPU user ${per((cpuAfter.user - cpuBefore.user) * 1000)} ms, system ${per((cpuAfter.system - cpuBefore.system) * 1000)} ms; context switches (main thread) voluntary ${per(switchesAfter.voluntary - switchesBefore.voluntary)}, involuntary ${per(switchesAfter.involuntary - switchesBefore.involuntary)}\n`,
  );
  process.stdout.write(
    `--- ledger per call (until drained): recorder CPU ${per((ledgerAfter.recorder - ledgerBefore.recorder) * 1000)} ms, PostgreSQL CPU ${per((ledgerAfter.postgres - ledgerBefore.postgres) * 1000)} ms; Redis commands ${per(commands.total)} (every client)\n`,
  );
  process.stdout.write(
    `--- gateway loop and GC over the loop: ${JSON.stringify(loopFiguresBetween(startPage, endPage))}\n`,
  );
  if (strace !== null) {
    process.stdout.write(`--- system calls per call (strace -c -f):\n`);
    for (const line of straceText.split('\n')) {
      const fields = line.trim().split(/\s+/);
      const count = Number(fields[3]);
      const name = fields.at(-1) ?? '';
      if (
        fields.length >= 5 &&
        Number.isFinite(count) &&
        name !== 'total' &&
        count / calls >= 0.05
      ) {
        process.stdout.write(`    ${name} ${(count / calls).toFixed(2)}\n`);
      }
    }
  }
  const summary = summarizeLatencies(latencies);
  const errors = Object.values(result.errors).reduce((sum, one) => sum + one, 0);
  process.stdout.write(
    `--- end: ${calls} calls, ${errors} failed, p50 ${summary.p50.toFixed(2)} ms, p99 ${summary.p99.toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms; load average ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}\n`,
  );
} finally {
  redis.disconnect();
  await target.stop();
  await layout.stop();
}
