/**
 * Target E of the side-by-side bench, the gateway as deployed: `tollgate gateway`, `tollgate
 * operator` and `tollgate recorder`, each its own process from the compiled build
 * (`node bin/tollgate.js <command>`, the gateway with the chart's `NODE_OPTIONS`), on the bench's
 * Redis (one prefix for the three) and a PostgreSQL database of the bench's own (created here,
 * dropped at stop), the operator reading a Kubernetes API: Tollgate's control plane in a bench
 * child. The resources (`render-bench-world.ts`) are applied with `kubectl`, and the measure starts
 * once the operator has programmed the key (the gateway answers 200). Nothing is seeded.
 *
 * Pinning, as a deployment places them: the gateway and Redis (pinned by the layout) on the server's
 * CPUs; the operator, the recorder, the control plane and the PostgreSQL backends of the bench's
 * database (pinned each second as they come, `pinBackends`) on the others, beside the load
 * generator, at the idle scheduling policy (`chrt -i 0`): they run when the load generator and the
 * upstream leave those CPUs free (at 1,000 calls/s they still make the load generator late:
 * docs/benchmarks.md). PostgreSQL's background processes are the machine's service and are left
 * as they run.
 *
 * For experiments on the tail (not for the figures of record): `TOLLGATE_BENCH_GATEWAY_NODE_OPTIONS`
 * replaces the gateway's `NODE_OPTIONS` (default: the chart's, `gateway-node-flags.ts`),
 * `TOLLGATE_BENCH_GATEWAY_NODE_ARGS` adds node flags to its command line (V8 flags that
 * `NODE_OPTIONS` refuses, such as `--trace-gc` or `--single-threaded-gc`), and
 * the bench's own `TOLLGATE_RECORDER_*` variables (`_GATHER_MS`, `_NICENESS`, `_BATCH_SIZE`) are
 * passed to the recorder (`compare-recorder-pacing.ts`), and
 * `TOLLGATE_BENCH_SIDECAR_CPUS` pins the operator, recorder, control plane and database backends
 * elsewhere (a CPU list for `taskset`, or `none`: the system places them),
 * `TOLLGATE_BENCH_SIDECAR_POLICY=normal` runs them at the normal policy; `TOLLGATE_BENCH_LOG_LEVEL`
 * replaces the chart's log level `info`; `TOLLGATE_BENCH_LOG_DIR` keeps the processes' logs there (with
 * `--trace-gc` in the gateway's options: every pause).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { GATEWAY_NODE_FLAGS } from '../../gateway/gateway-node-flags.js';
import { freePort } from '../../test/support/redis-server.js';
import { kubectl, probe } from '../macro/call-bulk-local.js';
import { BENCH_WORLD_KEY, renderBenchWorld } from './render-bench-world.js';
import { spawnBenchChild } from './spawn-bench-child.js';
import { metricSum, spawnTollgateCommand, type TollgateProcess } from './spawn-tollgate-command.js';
import { pollUntil } from './poll-until.js';
import type { BenchCredentials } from './describe-bench-requests.js';

const execFileAsync = promisify(execFile);

export const BENCH_POSTGRES_URL =
  process.env.TOLLGATE_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface MeasuredProcesses {
  /** Name to pid, for the CPU per call of every process (`gateway` first). */
  pids: Record<string, number>;
  /** PostgreSQL backends of the bench's database, read at each reading (they come and go). */
  postgresPids?: () => Promise<number[]>;
}

export interface StartedSystem extends MeasuredProcesses {
  url: string;
  /** The gateway's Prometheus page (event-loop delay and GC pauses per rate). */
  metricsUrl?: string;
  credentials: BenchCredentials;
  /** Resolves once the usage recorder has written every record it was given. */
  drained(): Promise<void>;
  /** The gateway's log so far (its stdout and stderr). */
  gatewayLog?: () => string[];
  stop(): Promise<void>;
}

/** Every platform's credential is the one key (the side-by-side run calls OpenAI only). */
export function oneKeyCredentials(value: string): BenchCredentials {
  return { anthropic: value, openai: value, gemini: value };
}

/** Waits until the recorder's backlog is empty and its inserted count holds still. */
export async function waitUntilDrained(metricsUrl: string, timeoutMs = 30_000): Promise<void> {
  let last = -1;
  await pollUntil(
    'the recorder to drain',
    async () => {
      const text = await (await fetch(metricsUrl)).text();
      const backlog = metricSum(text, 'tollgate_recorder_backlog_records') ?? 0;
      const inserted = metricSum(text, 'tollgate_recorder_records_inserted_total') ?? 0;
      const still = backlog === 0 && inserted === last;
      last = inserted;
      return still ? true : undefined;
    },
    timeoutMs,
    500,
  );
}

async function postgresAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The idle policy for the processes beside the gateway, unless the bench asks for `normal`. */
const SIDECAR_WRAPPER =
  process.env.TOLLGATE_BENCH_SIDECAR_POLICY === 'normal' ? [] : ['chrt', '-i', '0'];

/**
 * Gives the backends of one database the sidecars' CPUs and policy each second, new ones as they
 * connect.
 */
function pinBackends(database: string, cpus: string | null): () => Promise<void> {
  const pinned = new Set<number>();
  let stopped = false;
  // One connection for the run: a new one each second would be PostgreSQL work of its own.
  const client = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  const give = async (command: string, args: string[]): Promise<void> => {
    // A backend that ended in between has nothing to pin.
    await execFileAsync(command, args).catch(() => undefined);
  };
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const result = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1',
        [database],
      );
      for (const { pid } of result.rows) {
        if (pinned.has(pid)) continue;
        pinned.add(pid);
        if (cpus !== null) await give('taskset', ['-pc', cpus, String(pid)]);
        if (SIDECAR_WRAPPER.length > 0) await give('chrt', ['-i', '-p', '0', String(pid)]);
      }
      await sleep(1_000);
    }
  })()
    .catch((error: unknown) => {
      process.stderr.write(`bench: the database's backends are not pinned: ${String(error)}\n`);
    })
    .finally(() => client.end().catch(() => undefined));
  return async () => {
    stopped = true;
    await loop;
  };
}

export async function startDeployedTarget(options: {
  upstreamUrl: string;
  redisUrl: string;
  /** The gateway's CPUs (a `taskset` list), or null for no pinning. */
  cpus: string | null;
  /** The operator's, recorder's, control plane's and database backends' CPUs. */
  sidecarCpus: string | null;
  /** Node flags for the gateway beside the chart's (`--trace-gc-nvp`: bench/profile/trace-gc.ts). */
  extraGatewayNodeFlags?: readonly string[];
}): Promise<StartedSystem> {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-bench-deployed-'));
  const database = `tollgate_bench_${randomBytes(4).toString('hex')}`;
  const databaseUrl = new URL(BENCH_POSTGRES_URL);
  databaseUrl.pathname = `/${database}`;
  const prefix = `tg-bench-E-${randomBytes(4).toString('hex')}:`;
  const keyValue = `sk-tg-bench-${randomBytes(16).toString('hex')}`;
  const pepperFile = join(folder, 'pepper');
  const credentialKeyFile = join(folder, 'credential-key');
  writeFileSync(pepperFile, randomBytes(32), { mode: 0o600 });
  writeFileSync(credentialKeyFile, randomBytes(32), { mode: 0o600 });
  const sidecarText = process.env.TOLLGATE_BENCH_SIDECAR_CPUS;
  const sidecarCpus =
    sidecarText === undefined ? options.sidecarCpus : sidecarText === 'none' ? null : sidecarText;
  const gatewayNodeArgs = (process.env.TOLLGATE_BENCH_GATEWAY_NODE_ARGS ?? '')
    .split(' ')
    .filter((one) => one !== '');
  const processes: TollgateProcess[] = [];
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const one of stops.reverse()) await one().catch(() => undefined);
    const keep = process.env.TOLLGATE_BENCH_LOG_DIR;
    if (keep !== undefined) {
      mkdirSync(keep, { recursive: true });
      for (const name of readdirSync(folder).filter((one) => one.endsWith('.log'))) {
        copyFileSync(join(folder, name), join(keep, `${prefix.slice(0, -1)}-${name}`));
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await postgresAdmin((client) => client.query(`CREATE DATABASE ${database}`));
    stops.push(async () => {
      await postgresAdmin((client) =>
        client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
      );
    });
    if (sidecarCpus !== null || SIDECAR_WRAPPER.length > 0) {
      stops.push(pinBackends(database, sidecarCpus));
    }
    const controlPlane = await spawnBenchChild({
      script: './serve-bench-control-plane.ts',
      args: [join(folder, 'control-plane')],
      cpus: sidecarCpus,
      wrapper: SIDECAR_WRAPPER,
    });
    stops.push(() => controlPlane.stop());
    const kubeconfig = String(controlPlane.ready.kubeconfigPath);
    const shared = {
      REDIS_URL: options.redisUrl,
      TOLLGATE_REDIS_PREFIX: prefix,
      TOLLGATE_METRICS_HOST: '127.0.0.1',
      // `info` is what the chart runs (one access-log line per call).
      TOLLGATE_LOG_LEVEL: process.env.TOLLGATE_BENCH_LOG_LEVEL ?? 'info',
    };
    const secrets = {
      TOLLGATE_PEPPER_FILE: pepperFile,
      TOLLGATE_CREDENTIAL_KEY_FILE: credentialKeyFile,
    };
    const start = (
      args: string[],
      env: Record<string, string>,
      nodeOptions?: string,
      cpus = sidecarCpus,
    ) => {
      const one = spawnTollgateCommand({
        args,
        logFile: join(folder, `${args[0] ?? 'tollgate'}.log`),
        env: {
          ...shared,
          ...env,
          ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
        },
        cpus,
        ...(args[0] === 'gateway' ? { nodeArgs: gatewayNodeArgs } : { wrapper: SIDECAR_WRAPPER }),
      });
      processes.push(one);
      stops.push(() => one.stop());
      return one;
    };
    const [port, gatewayMetrics, operatorMetrics, recorderMetrics] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    // The gateway first: bin/tollgate.js rebuilds dist/ when it is older than the sources.
    const gateway = start(
      ['gateway'],
      {
        ...secrets,
        TOLLGATE_HOST: '127.0.0.1',
        TOLLGATE_PORT: String(port),
        TOLLGATE_METRICS_PORT: String(gatewayMetrics),
        TOLLGATE_DRAIN_TIMEOUT_MS: '2000',
      },
      process.env.TOLLGATE_BENCH_GATEWAY_NODE_OPTIONS ??
        [...GATEWAY_NODE_FLAGS, ...(options.extraGatewayNodeFlags ?? [])].join(' '),
      options.cpus,
    );
    const url = `http://127.0.0.1:${port}`;
    await pollUntil(
      'the gateway to be ready',
      async () => {
        if (gateway.exited()) throw new Error(gateway.tail().join('\n'));
        return (await fetch(`${url}/readyz`)).status === 200 ? true : undefined;
      },
      120_000,
    );
    const operator = start(['operator'], {
      ...secrets,
      KUBECONFIG: kubeconfig,
      TOLLGATE_NAMESPACE: 'tollgate-system',
      TOLLGATE_METRICS_PORT: String(operatorMetrics),
    });
    const recorder = start(['recorder'], {
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          (entry): entry is [string, string] =>
            entry[0].startsWith('TOLLGATE_RECORDER_') && entry[1] !== undefined,
        ),
      ),
      TOLLGATE_DATABASE_URL: databaseUrl.href,
      TOLLGATE_METRICS_PORT: String(recorderMetrics),
      TOLLGATE_RECORDER_CONSUMER: 'bench',
    });
    const recorderMetricsUrl = `http://127.0.0.1:${recorderMetrics}/metrics`;
    await kubectl(kubeconfig, ['apply', '-f', '-'], {
      input: renderBenchWorld({ upstreamUrl: options.upstreamUrl, keyValue }),
    });
    await pollUntil(
      `the operator to program ${BENCH_WORLD_KEY}`,
      async () => {
        for (const one of processes) if (one.exited()) throw new Error(one.tail().join('\n'));
        const answer = await probe(url, keyValue);
        if (answer !== 'ok') throw new Error(answer);
        return true;
      },
      60_000,
      250,
    );
    await pollUntil(
      'the recorder to serve its metrics',
      async () => ((await fetch(recorderMetricsUrl)).ok ? true : undefined),
      30_000,
    );
    return {
      url,
      credentials: oneKeyCredentials(keyValue),
      metricsUrl: `http://127.0.0.1:${gatewayMetrics}/metrics`,
      pids: {
        gateway: gateway.pid,
        operator: operator.pid,
        recorder: recorder.pid,
        controlPlane: controlPlane.pid,
      },
      postgresPids: () =>
        postgresAdmin(async (client) => {
          const result = await client.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE datname = $1',
            [database],
          );
          return result.rows.map((row) => row.pid);
        }),
      drained: () => waitUntilDrained(recorderMetricsUrl),
      gatewayLog: () => gateway.log(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
