/**
 * `npm run bench [-- --quick]`: the benchmark harness. Starts the fake provider, the load generator
 * and (for scenario D) a private redis-server, measures every target of the plan one after another,
 * profiles scenario D, writes its raw figures to `bench/results/<date>[-quick].json` (ignored by
 * git) with the run's tables beside them (`.md`), and updates `bench/summaries/`. Everything runs on 127.0.0.1 and stops by itself (a hard deadline kills
 * the children and exits if anything hangs). `--side-by-side [--targets A,B,D,E,F]` runs the bare
 * pass-through and Tollgate's shapes in one run instead (bench/macro/side-by-side.ts); for
 * experiments on the tail, `--repeat N` (the targets N times over, alternating), `--kinds streamed`
 * and `--tail-only` (the rates without the saturation window).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';
import { measureHold, measureTarget, type MeasureContext } from './measure-target.js';
import { planBenchRun, type BenchPlan, type BenchTarget } from '../support/plan-bench-run.js';
import { profileGateway } from '../profile/profile-gateway.js';
import { RedisCommandStats } from '../support/read-redis-commandstats.js';
import {
  renderGeneratedSection,
  spliceGeneratedSection,
  type RunFacts,
} from './render-benchmarks-markdown.js';
import type { BenchChild } from '../support/spawn-bench-child.js';
import { startBenchProcesses } from './start-bench-processes.js';
import { startBenchTarget, type TargetEnvironment } from '../support/start-bench-target.js';
import { summarizeBenchResults, type MeasuredTarget } from './summarize-bench-results.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';

const root = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

function packageVersion(name: string): string {
  const text = readFileSync(root(`node_modules/${name}/package.json`), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

function describeMachine(): { machine: string[]; versions: Record<string, string> } {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const redis = /v=(\S+)/.exec(
    execFileSync('redis-server', ['--version'], { encoding: 'utf8' }),
  )?.[1];
  return {
    machine: [
      `Machine: ${cpu}, ${availableParallelism()} CPUs usable, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}`,
      `Load average at start: ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' / ')} (the machine is shared with other builds and test runs)`,
    ],
    versions: {
      node: process.version,
      redis: redis ?? 'unknown',
      fastify: packageVersion('fastify'),
      undici: packageVersion('undici'),
      ioredis: packageVersion('ioredis'),
    },
  };
}

type Loadgen = BenchChild;

/** Starts the target, runs `measure` against it, stops it. */
async function withTarget<T>(
  options: {
    plan: BenchPlan;
    environment: TargetEnvironment;
    loadgen: Loadgen;
    target: BenchTarget;
  },
  measure: (context: MeasureContext) => Promise<T>,
): Promise<T> {
  const { plan, environment, loadgen, target } = options;
  const started = await startBenchTarget(target, environment);
  const redis =
    target.scenario === 'D' && environment.redisUrl !== null
      ? new RedisCommandStats(environment.redisUrl)
      : null;
  try {
    return await measure({
      plan,
      loadgen,
      provider: environment.provider,
      url: started.url,
      credentials: started.credentials,
      targetPid: started.pid,
      redis,
      crossCheck: target.crossCheck,
    });
  } finally {
    await redis?.close();
    await started.stop();
  }
}

async function measureAll(plan: BenchPlan, environment: TargetEnvironment, loadgen: Loadgen) {
  const measured: MeasuredTarget[] = [];
  for (const target of plan.targets) {
    process.stdout.write(`bench: ${new Date().toISOString()} measuring ${target.label}\n`);
    const options = { plan, environment, loadgen, target };
    const measurement = await withTarget(options, measureTarget);
    if (target.hold) {
      process.stdout.write(`bench: ${new Date().toISOString()} holding streams, fresh process\n`);
      measurement.hold = await withTarget(options, measureHold);
    }
    measured.push({ target, measurement });
  }
  return measured;
}

async function main(): Promise<void> {
  const began = performance.now();
  const quick = process.argv.includes('--quick');
  const plan = planBenchRun(quick ? 'quick' : 'full');
  const deadline = setTimeout(
    () => {
      process.stderr.write('bench: hard deadline reached, stopping\n');
      process.exit(2);
    },
    quick ? 170_000 : 25 * 60_000,
  );
  const { pinning, provider, loadgen } = await startBenchProcesses(plan);
  let redisServer: RedisServer | null = null;
  // Ctrl-C or a kill: exit, so the exit hooks kill every child (and the bench Redis).
  const interrupt = (): void => process.exit(130);
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  process.once('exit', () => redisServer?.process.kill('SIGKILL'));
  try {
    redisServer = await startRedisServer();
    const upstreamKey = 'fake-upstream-key';
    const environment: TargetEnvironment = {
      provider,
      providerUrl: String(provider.ready.url),
      redisUrl: redisServer.url,
      gatewayCpus: pinning?.gateway ?? null,
      upstreamCredentials: { anthropic: upstreamKey, openai: upstreamKey, gemini: upstreamKey },
    };
    const measured = await measureAll(plan, environment, loadgen);
    process.stdout.write(`bench: ${new Date().toISOString()} profiling scenario D\n`);
    const profile = await profileGateway({ plan, environment, loadgen });
    const figures = summarizeBenchResults(measured);
    const date = new Date().toISOString();
    const resultsFile = `bench/results/${date.slice(0, 10)}${quick ? '-quick' : ''}.json`;
    const { machine, versions } = describeMachine();
    const facts: RunFacts = {
      date,
      mode: plan.mode,
      command: quick ? 'npm run bench -- --quick' : 'npm run bench',
      machine,
      versions,
      pinning:
        pinning === null
          ? `none (${availableParallelism()} CPUs: too few to split; every process shares them)`
          : `gateway/proxy on CPUs ${pinning.gateway}, provider and load generator on ${pinning.rest}`,
      provider: `first byte after ${plan.provider.firstByteDelayMs} ms, ${plan.provider.chunks} text deltas ${plan.provider.chunkGapMs} ms apart (saturation: no delays)`,
      resultsFile,
      durationSeconds: (performance.now() - began) / 1000,
    };
    mkdirSync(root('bench/results'), { recursive: true });
    const stripped = figures.map((one) => ({ ...one }));
    writeFileSync(
      root(resultsFile),
      `${JSON.stringify({ facts, plan, figures: stripped, profile }, null, 2)}\n`,
    );
    // The run's tables as Markdown, next to its raw figures (docs/benchmarks.md quotes the summary).
    const tablesFile = resultsFile.replace(/\.json$/, '.md');
    const section = renderGeneratedSection({ facts, figures, profile });
    const markdown = spliceGeneratedSection('# Benchmark run\n', { mode: plan.mode, section });
    const style = (await resolveConfig(root(tablesFile))) ?? {};
    writeFileSync(
      root(tablesFile),
      await format(markdown, { ...style, filepath: root(tablesFile) }),
    );
    for (const written of updateBenchSummaries()) process.stdout.write(`bench: wrote ${written}\n`);
    process.stdout.write(
      `bench: wrote ${resultsFile} and ${tablesFile} in ${facts.durationSeconds.toFixed(0)} s\n`,
    );
  } finally {
    clearTimeout(deadline);
    await loadgen.ask({ type: 'stop' }, 5_000).catch(() => undefined);
    await loadgen.stop();
    await provider.stop();
    await redisServer?.stop();
  }
}

if (process.argv.includes('--side-by-side')) {
  const { runSideBySide } = await import('./side-by-side.js');
  const { parseTargets } = await import('../support/side-by-side-figures.js');
  const at = process.argv.indexOf('--targets');
  const given = at === -1 ? undefined : process.argv[at + 1];
  const after = (flag: string): string | undefined => {
    const index = process.argv.indexOf(flag);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const kinds = after('--kinds');
  await runSideBySide(process.argv.includes('--quick'), parseTargets(given), given !== undefined, {
    repeat: Number(after('--repeat') ?? '1'),
    tailOnly: process.argv.includes('--tail-only'),
    ...(kinds === undefined ? {} : { kinds: kinds.split(',') }),
  });
  process.exit(0);
} else await main();
