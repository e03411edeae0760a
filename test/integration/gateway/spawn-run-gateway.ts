/**
 * `gateway/run-gateway.ts` as a real process, from the sources through tsx, for the tests that need
 * a gateway process of their own (the drain on SIGTERM, the lease sweep, the log): the given flags,
 * and the given variables on top of PATH only. Its stderr is piped (a failure to start shows there);
 * its stdout is ignored unless asked for. `startGatewayProcess` also prepares a memory-store data
 * folder with a key and waits until the process is ready.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { createStore } from '../../../store/create-store.js';
import { freePort } from '../../support/redis-server.js';
import {
  createKey,
  newSecrets,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';

export function spawnRunGateway(options: {
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  stdout?: 'pipe' | 'ignore';
}): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      "const { run } = await import('./gateway/run-gateway.ts'); await run(process.argv.slice(1));",
      '--',
      ...options.args,
    ],
    {
      cwd: process.cwd(),
      stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'],
      env: { PATH: process.env.PATH, ...options.env },
    },
  );
}

/** Waits until `url` answers 200 (the gateway's `/readyz`), for at most 10 s. */
export async function waitUntilReady(url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const response = await request(url);
      await response.body.text();
      if (response.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`${url} never became ready`);
}

export interface GatewayProcess {
  child: ChildProcess;
  port: number;
  metricsPort: number;
  /** An Anthropic key of the account `namespace`. */
  apiKey: string;
  fake: FakeProvider;
  /** The process's data folder (its memory store's file is there). */
  dataDir: string;
  /** Kills the process if it still runs, closes the fake provider, removes the data folder. */
  stop(): Promise<void>;
}

/**
 * A gateway process on the memory store in a new data folder, with the fake provider as every
 * upstream, an account and one Anthropic key: ready (`/readyz`) when this resolves.
 */
export async function startGatewayProcess(options: {
  namespace: string;
  env: Readonly<Record<string, string>>;
  stdout?: 'pipe' | 'ignore';
}): Promise<GatewayProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-gateway-process-'));
  const secrets = newSecrets();
  const fake = await startFakeProvider({ keepRequests: 1_000 });
  const store = await createStore({ dataDir });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, options.namespace);
  const key = await createKey(store, secrets, {
    platform: 'Anthropic',
    namespace: options.namespace,
  });
  await store.close();
  writeFileSync(join(dataDir, 'pepper'), secrets.pepper);
  writeFileSync(join(dataDir, 'credential-key'), secrets.credentialKey.toString('base64'));
  const port = await freePort();
  const metricsPort = await freePort();
  const child = spawnRunGateway({
    args: [`--port=${port}`, '--host=127.0.0.1', '--metrics-host=127.0.0.1', '--data-dir', dataDir],
    env: {
      TOLLGATE_METRICS_PORT: String(metricsPort),
      TOLLGATE_PEPPER_FILE: join(dataDir, 'pepper'),
      TOLLGATE_CREDENTIAL_KEY_FILE: join(dataDir, 'credential-key'),
      ...options.env,
    },
    ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, port, metricsPort, apiKey: key.value, fake, dataDir, stop };
}

/** A short Messages call with the process's key, streamed or not. */
export function postMessage(
  gateway: Pick<GatewayProcess, 'port' | 'apiKey'>,
  options: { stream?: boolean } = {},
): ReturnType<typeof request> {
  return request(`http://127.0.0.1:${gateway.port}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': gateway.apiKey },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      ...(options.stream === true ? { stream: true } : {}),
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
}
