/**
 * Profiles scenario D: a fresh one-worker gateway on Redis, warmed up, then profiled (V8 sampling
 * profiler through node:inspector, load only) while driven at the top fixed rate; returns the
 * summary and keeps the `.cpuprofile` under `bench/results/profiles/` (open it in Chrome DevTools
 * or speedscope for a flame graph).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCH_KINDS } from '../support/describe-bench-requests.js';
import type { BenchPlan } from '../support/plan-bench-run.js';
import type { BenchChild } from '../support/spawn-bench-child.js';
import { startBenchTarget, type TargetEnvironment } from '../support/start-bench-target.js';
import {
  summarizeCpuProfile,
  type CpuProfile,
  type ProfileSummary,
} from './summarize-cpu-profile.js';

export async function profileGateway(options: {
  plan: BenchPlan;
  environment: TargetEnvironment;
  loadgen: BenchChild;
}): Promise<ProfileSummary | null> {
  const { plan, environment, loadgen } = options;
  const target = plan.targets.find((one) => one.id === 'D1');
  if (target === undefined) return null;
  const folder = fileURLToPath(new URL('../results/profiles/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  const kept = `${folder}scenario-d-${plan.mode}.cpuprofile`;
  const started = await startBenchTarget(target, environment);
  const gateway = started.child;
  if (gateway === null) return null;
  const drive = (durationMs: number) =>
    loadgen.ask(
      {
        type: 'run',
        url: started.url,
        connections: plan.connections,
        kinds: BENCH_KINDS,
        credentials: started.credentials,
        load: { mode: 'open', rate: plan.rates.at(-1) ?? 1000, durationMs },
      },
      120_000,
    );
  try {
    await drive(plan.warmupMs);
    await gateway.ask({ type: 'profile-start' }, 10_000);
    await drive(plan.profileMs);
    const answer = await gateway.ask({ type: 'profile-stop', path: kept }, 30_000);
    if (answer.type !== 'profile-written') return null;
  } finally {
    await started.stop();
  }
  return summarizeCpuProfile(JSON.parse(readFileSync(kept, 'utf8')) as CpuProfile);
}
