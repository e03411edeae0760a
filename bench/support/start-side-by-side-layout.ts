/**
 * The side-by-side layout shared by `side-by-side.ts`, `profile-hot-path.ts` and `probe-tail.ts`:
 * the minimal mock upstream and the load generator on one half of the CPUs, a private Redis pinned
 * with the server under test on the other (`planSideBySidePinning`; no pinning below two CPUs),
 * and the target environment for Tollgate with every admission feature on.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';
import { planCpuPinning } from './plan-bench-run.js';
import { spawnBenchChild, type BenchChild } from './spawn-bench-child.js';
import type { BenchCredentials, BenchRequestKind } from './describe-bench-requests.js';
import type { LoadResult } from './run-load-modes.js';
import type { TargetEnvironment } from './start-bench-target.js';

/** CPU lists: the server and its Redis on one side, load and upstream on the other. */
export function planSideBySidePinning(cpus: number): { server: string; rest: string } | null {
  if (cpus === 2) return { server: '1', rest: '0' };
  const halves = planCpuPinning(cpus);
  return halves === null ? null : { server: halves.gateway, rest: halves.rest };
}

export interface SideBySideLayout {
  pinning: ReturnType<typeof planSideBySidePinning>;
  mock: BenchChild;
  loadgen: BenchChild;
  redisServer: RedisServer;
  environment: TargetEnvironment;
  stop(): Promise<void>;
}

export async function startSideBySideLayout(
  options: { gatewayNodeFlags?: readonly string[] } = {},
): Promise<SideBySideLayout> {
  const pinning = planSideBySidePinning(availableParallelism());
  const mock = await spawnBenchChild({
    script: './serve-mock-upstream.ts',
    cpus: pinning?.rest ?? null,
  });
  const loadgen = await spawnBenchChild({
    script: './serve-load-generator.ts',
    cpus: pinning?.rest ?? null,
  });
  const redisServer = await startRedisServer();
  process.once('exit', () => redisServer.process.kill('SIGKILL'));
  if (pinning !== null && redisServer.process.pid !== undefined) {
    execFileSync('taskset', ['-a', '-pc', pinning.server, String(redisServer.process.pid)], {
      stdio: 'ignore',
    });
  }
  const upstreamKey = 'fake-upstream-key';
  return {
    pinning,
    mock,
    loadgen,
    redisServer,
    environment: {
      provider: mock,
      providerUrl: String(mock.ready.url),
      redisUrl: redisServer.url,
      gatewayCpus: pinning?.server ?? null,
      upstreamCredentials: { anthropic: upstreamKey, openai: upstreamKey, gemini: upstreamKey },
      allFeatures: true,
      ...(options.gatewayNodeFlags === undefined
        ? {}
        : { gatewayNodeFlags: options.gatewayNodeFlags }),
    },
    stop: async () => {
      await loadgen.ask({ type: 'stop' }, 5_000).catch(() => undefined);
      await loadgen.stop();
      await mock.stop();
      await redisServer.stop();
    },
  };
}

/** One load run of the load generator against a started target (open or closed loop). */
export async function driveLoad(
  loadgen: BenchChild,
  call: {
    url: string;
    kind: BenchRequestKind;
    credentials: BenchCredentials;
    load: Record<string, unknown>;
  },
): Promise<LoadResult> {
  const answer = await loadgen.ask(
    {
      type: 'run',
      url: call.url,
      connections: 512,
      kinds: [call.kind],
      credentials: call.credentials,
      load: call.load,
    },
    300_000,
  );
  if (answer.type !== 'result') throw new Error(`load generator failed: ${String(answer.message)}`);
  return answer.result as LoadResult;
}

/** Calls answered in a load result. */
export function answeredCalls(result: LoadResult): number {
  return Object.values(result.latencies).flat().length;
}
