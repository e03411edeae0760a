/**
 * Runs the phases of one target: warm-up, each fixed rate (open loop), the saturation probe (closed
 * loop, provider without delays), the optional closed-loop cross-check and the optional 1,000-stream
 * hold (on a fresh target process, so the peak is the streams' and not the earlier phases'),
 * reading CPU, RSS and Redis command counts around each phase.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { summarizeLatencies, type LatencySummary } from '../support/compute-percentiles.js';
import { BENCH_KINDS, type BenchCredentials } from '../support/describe-bench-requests.js';
import type { BenchPlan } from '../support/plan-bench-run.js';
import { readProcessStats, resetPeakRss } from '../support/read-process-stats.js';
import type {
  CommandCounts,
  CommandSources,
  RedisCommandStats,
} from '../support/read-redis-commandstats.js';
import type { LoadResult } from '../support/run-load-modes.js';
import type { LoadCommand } from '../support/serve-load-generator.js';
import type { BenchChild } from '../support/spawn-bench-child.js';

export interface PhaseFigures {
  sent: number;
  ok: number;
  durationMs: number;
  achievedRps: number;
  latency: LatencySummary;
  byKind: Record<string, LatencySummary>;
  errors: Record<string, number>;
  cpuSeconds: number;
  providerCpuSeconds: number;
  redis: CommandCounts | null;
}

export interface RatePhase extends PhaseFigures {
  rate: number;
  eventOffsets: LoadResult['eventOffsets'];
}

export interface HoldFigures {
  streams: number;
  ok: number;
  errors: Record<string, number>;
  seconds: number;
  idleRssMb: number;
  peakRssMb: number;
  maxSampledRssMb: number;
  peakFromHwm: boolean;
}

export interface TargetMeasurement {
  rates: RatePhase[];
  saturation: PhaseFigures;
  crossCheck: { closed: PhaseFigures; open: PhaseFigures; concurrency: number } | null;
  hold: HoldFigures | null;
  /** A MONITOR sample at the lowest rate (scenario D only). */
  redisSources: CommandSources | null;
}

export interface MeasureContext {
  plan: BenchPlan;
  loadgen: BenchChild;
  provider: BenchChild;
  url: string;
  credentials: BenchCredentials;
  /** The process whose CPU and memory are the target's (provider, proxy or gateway). */
  targetPid: number;
  redis: RedisCommandStats | null;
  crossCheck: boolean;
}

async function drive(
  context: MeasureContext,
  options: { load: Extract<LoadCommand, { type: 'run' }>['load']; connections?: number },
): Promise<{ figures: PhaseFigures; raw: LoadResult }> {
  const before = readProcessStats(context.targetPid).cpuSeconds;
  const providerBefore = readProcessStats(context.provider.pid).cpuSeconds;
  await context.redis?.reset();
  const command: LoadCommand = {
    type: 'run',
    url: context.url,
    connections: options.connections ?? context.plan.connections,
    kinds: BENCH_KINDS,
    credentials: context.credentials,
    load: options.load,
  };
  const answer = await context.loadgen.ask(command, 300_000);
  if (answer.type !== 'result') throw new Error(`load generator failed: ${String(answer.message)}`);
  const raw = answer.result as LoadResult;
  const redis = context.redis === null ? null : await context.redis.read();
  const all = Object.values(raw.latencies).flat();
  const byKind: Record<string, LatencySummary> = {};
  for (const [name, values] of Object.entries(raw.latencies))
    byKind[name] = summarizeLatencies(values);
  const figures: PhaseFigures = {
    sent: raw.sent,
    ok: all.length,
    durationMs: raw.durationMs,
    achievedRps: (all.length * 1000) / raw.durationMs,
    latency: summarizeLatencies(all),
    byKind,
    errors: raw.errors,
    cpuSeconds: readProcessStats(context.targetPid).cpuSeconds - before,
    providerCpuSeconds: readProcessStats(context.provider.pid).cpuSeconds - providerBefore,
    redis,
  };
  return { figures, raw };
}

async function setProvider(context: MeasureContext, behaviour: object): Promise<void> {
  await context.provider.ask({ type: 'behaviour', behaviour }, 10_000);
}

/** The 1,000-stream hold against a freshly started target, after a short warm-up. */
export async function measureHold(context: MeasureContext): Promise<HoldFigures> {
  const { hold } = context.plan;
  await drive(context, { load: { mode: 'open', rate: 200, durationMs: 1_000 } });
  await setProvider(context, { firstByteDelayMs: 20, chunkGapMs: 1000, chunks: hold.seconds });
  const idleRssMb = readProcessStats(context.targetPid).rssMb;
  const peakFromHwm = resetPeakRss(context.targetPid);
  let maxSampledRssMb = idleRssMb;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxSampledRssMb = Math.max(maxSampledRssMb, readProcessStats(context.targetPid).rssMb);
      await sleep(500);
    }
  })();
  const { figures: result } = await drive(context, {
    load: { mode: 'hold', streams: hold.streams, rampMs: hold.rampMs },
    connections: hold.streams + 100,
  });
  sampling = false;
  await sampler;
  await setProvider(context, context.plan.provider);
  const stats = readProcessStats(context.targetPid);
  return {
    streams: hold.streams,
    ok: result.ok,
    errors: result.errors,
    seconds: hold.seconds,
    idleRssMb,
    peakRssMb: peakFromHwm ? stats.peakRssMb : maxSampledRssMb,
    maxSampledRssMb,
    peakFromHwm,
  };
}

export async function measureTarget(context: MeasureContext): Promise<TargetMeasurement> {
  const { plan } = context;
  await drive(context, { load: { mode: 'open', rate: 200, durationMs: plan.warmupMs } });
  const rates: RatePhase[] = [];
  for (const rate of plan.rates) {
    const phase = await drive(context, {
      load: { mode: 'open', rate, durationMs: plan.rateDurationMs },
    });
    rates.push({ ...phase.figures, rate, eventOffsets: phase.raw.eventOffsets });
  }
  await setProvider(context, {});
  const { figures: saturation } = await drive(context, {
    load: { mode: 'closed', ...plan.saturation },
  });
  await setProvider(context, plan.provider);
  let crossCheck: TargetMeasurement['crossCheck'] = null;
  if (context.crossCheck) {
    const { figures: closed } = await drive(context, {
      load: { mode: 'closed', ...plan.crossCheck },
    });
    const rate = Math.max(1, Math.round(closed.achievedRps));
    const { figures: open } = await drive(context, {
      load: { mode: 'open', rate, durationMs: plan.crossCheck.durationMs },
    });
    crossCheck = { closed, open, concurrency: plan.crossCheck.concurrency };
  }
  const redisSources =
    context.redis === null
      ? null
      : await context.redis.sampleSources(async () => {
          const rate = plan.rates[0] ?? 200;
          const phase = await drive(context, {
            load: { mode: 'open', rate, durationMs: plan.monitorMs },
          });
          return phase.figures.sent;
        });
  return { rates, saturation, crossCheck, hold: null, redisSources };
}
