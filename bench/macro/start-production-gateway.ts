/**
 * Starts Tollgate's gateway as the chart runs it: `node bin/tollgate.js gateway` from the compiled
 * build, no tsx loader and no bench code in the process, its Node flags in `NODE_OPTIONS`, its
 * settings in `TOLLGATE_*` variables and its secrets in files. The bench's upstreams, account and
 * keys (every admission feature set) are first written into its Redis, as the operator would. The
 * process's memory is therefore the deployed gateway's own (`measure-gateway-memory.ts`).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ensureFreshBuild } from '../../bin/ensure-fresh-build.js';
import { GATEWAY_NODE_FLAGS } from '../../gateway/gateway-node-flags.js';
import { createStore } from '../../store/create-store.js';
import { hashKeyValue } from '../../store/hash-key-value.js';
import { freePort } from '../../test/support/redis-server.js';
import type { BenchCredentials } from '../support/describe-bench-requests.js';
import { newBenchKeys, seedBenchStore } from '../support/seed-bench-store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const READY_WITHIN_MS = 30_000;

export interface ProductionGatewayOptions {
  providerUrl: string;
  redisUrl: string;
  /** CPUs to pin the gateway to (`taskset -c`), or null. */
  cpus: string | null;
  /** Node flags after the chart's (a later flag overrides an earlier one). */
  nodeFlags?: readonly string[];
}

async function waitUntilReady(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the gateway exited before it was ready');
    const status = await fetch(`${url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error(`the gateway was not ready within ${READY_WITHIN_MS} ms`);
}

export interface ProductionGateway {
  url: string;
  /** Its metrics port (`/metrics`: prom-client's process and heap figures among Tollgate's). */
  metricsUrl: string;
  /** The gateway's own process: its memory is the figure. */
  pid: number;
  credentials: BenchCredentials;
  stop(): Promise<void>;
}

export async function startProductionGateway(
  options: ProductionGatewayOptions,
): Promise<ProductionGateway> {
  ensureFreshBuild(root);
  const secrets = { pepper: randomBytes(32), credentialKey: randomBytes(32) };
  const keys = newBenchKeys();
  const prefix = `tg-bench-production-${randomBytes(4).toString('hex')}:`;
  const store = await createStore({ redisUrl: options.redisUrl, prefix });
  try {
    await seedBenchStore(store, {
      secrets,
      providerUrl: options.providerUrl,
      keys,
      allFeatures: true,
      hashKeyValue,
    });
  } finally {
    await store.close();
  }
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  const pepperFile = join(folder, 'pepper');
  const credentialKeyFile = join(folder, 'credential-key');
  writeFileSync(pepperFile, secrets.pepper, { mode: 0o600 });
  writeFileSync(credentialKeyFile, secrets.credentialKey, { mode: 0o600 });
  const [port, metricsPort] = [await freePort(), await freePort()];
  const entry = join(root, 'bin/tollgate.js');
  const [command, args] =
    options.cpus === null
      ? [process.execPath, [entry, 'gateway']]
      : ['taskset', ['-c', options.cpus, process.execPath, entry, 'gateway']];
  const child = spawn(command, args, {
    // The access log (one line per call at `info`, the chart's level) is written and dropped.
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_OPTIONS: [...GATEWAY_NODE_FLAGS, ...(options.nodeFlags ?? [])].join(' '),
      REDIS_URL: options.redisUrl,
      TOLLGATE_REDIS_PREFIX: prefix,
      TOLLGATE_PEPPER_FILE: pepperFile,
      TOLLGATE_CREDENTIAL_KEY_FILE: credentialKeyFile,
      TOLLGATE_HOST: '127.0.0.1',
      TOLLGATE_PORT: String(port),
      TOLLGATE_METRICS_HOST: '127.0.0.1',
      TOLLGATE_METRICS_PORT: String(metricsPort),
      TOLLGATE_LOG_LEVEL: 'info',
      TOLLGATE_DRAIN_TIMEOUT_MS: '2000',
    },
  });
  // As every bench child: killed when the bench exits, whatever way it does.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const url = `http://127.0.0.1:${port}`;
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const stop = async (): Promise<void> => {
    if (!exited()) {
      const done = once(child, 'exit');
      child.kill('SIGTERM');
      const grace = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(grace);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, exited);
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error('could not start the gateway');
  return {
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    pid: child.pid,
    credentials: keys,
    stop,
  };
}
