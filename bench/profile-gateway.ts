/**
 * Profiles scenario D: a fresh one-worker gateway on Redis under `node --cpu-prof`, driven at the
 * top fixed rate for a while, then stopped so V8 writes the profile; returns its summary and keeps
 * the `.cpuprofile` under `bench/results/profiles/` (open it in Chrome DevTools or speedscope).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCH_KINDS } from './describe-bench-requests.js';
import type { BenchPlan } from './plan-bench-run.js';
import type { BenchChild } from './spawn-bench-child.js';
import { startBenchTarget, type TargetEnvironment } from './start-bench-target.js';
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
  const folder = fileURLToPath(new URL('./results/profiles/', import.meta.url));
  const scratch = `${folder}tmp-${process.pid}`;
  mkdirSync(scratch, { recursive: true });
  const target = plan.targets.find((one) => one.id === 'D1');
  if (target === undefined) return null;
  const started = await startBenchTarget(target, environment, [
    '--cpu-prof',
    '--cpu-prof-dir',
    scratch,
  ]);
  try {
    const rate = plan.rates.at(-1) ?? 1000;
    await loadgen.ask(
      {
        type: 'run',
        url: started.url,
        connections: plan.connections,
        kinds: BENCH_KINDS,
        credentials: started.credentials,
        load: { mode: 'open', rate, durationMs: plan.profileMs },
      },
      120_000,
    );
  } finally {
    await started.stop();
  }
  const written = readdirSync(scratch).filter((name) => name.endsWith('.cpuprofile'));
  const first = written[0];
  if (first === undefined) {
    rmSync(scratch, { recursive: true, force: true });
    return null;
  }
  const kept = `${folder}scenario-d-${plan.mode}.cpuprofile`;
  renameSync(`${scratch}/${first}`, kept);
  rmSync(scratch, { recursive: true, force: true });
  return summarizeCpuProfile(JSON.parse(readFileSync(kept, 'utf8')) as CpuProfile);
}
