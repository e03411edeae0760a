/**
 * The processes `npm run bench` drives its targets with: the fake provider (with the plan's
 * timing) and the load generator, both on the CPUs the target does not get when the machine has
 * enough of them (`planCpuPinning`).
 */
import { availableParallelism } from 'node:os';
import { planCpuPinning, type BenchPlan } from '../support/plan-bench-run.js';
import { spawnBenchChild, type BenchChild } from '../support/spawn-bench-child.js';

export interface BenchProcesses {
  pinning: ReturnType<typeof planCpuPinning>;
  provider: BenchChild;
  loadgen: BenchChild;
}

export async function startBenchProcesses(plan: BenchPlan): Promise<BenchProcesses> {
  const pinning = planCpuPinning(availableParallelism());
  const provider = await spawnBenchChild({
    script: './serve-bench-provider.ts',
    args: [JSON.stringify(plan.provider)],
    cpus: pinning?.rest ?? null,
  });
  const loadgen = await spawnBenchChild({
    script: './serve-load-generator.ts',
    cpus: pinning?.rest ?? null,
  });
  return { pinning, provider, loadgen };
}
