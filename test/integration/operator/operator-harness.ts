/**
 * Test harness: a local control plane (real HTTPS Kubernetes API subset) in a temporary folder, a
 * real store (memory or Redis with a unique prefix), operators started through `startOperator`, and
 * `kubectl` against the generated kubeconfig. Every wait polls with a deadline.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { startLocal, type Local } from '../../../local/start-local.js';
import { createStore } from '../../../store/create-store.js';
import type { Store } from '../../../store/store.js';
import {
  startOperator,
  type RunningOperator,
  type StartOperatorOptions,
} from '../../../operator/start-operator.js';

export interface Harness {
  local: Local;
  dataDirectory: string;
  store: Store;
  pepper: Buffer;
  credentialKey: Buffer;
  kubeConfig: KubeConfig;
  startOperator(
    identity: string,
    overrides?: Partial<StartOperatorOptions>,
  ): Promise<RunningOperator>;
  kubectl(args: readonly string[], input?: string): Promise<string>;
  apply(yaml: string): Promise<string>;
  getJson<T>(args: readonly string[]): Promise<T>;
  close(): Promise<void>;
}

export async function startHarness(options: {
  redisUrl?: string;
  prefix?: string;
  /** Small values force watches to end and resume from versions that fell out (410 Gone). */
  watch?: { window: number; timeoutMs: number };
}): Promise<Harness> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'tollgate-operator-it-'));
  const local = await startLocal({
    dataDirectory,
    ...(options.watch === undefined
      ? {}
      : { watchWindow: options.watch.window, watchTimeoutMs: options.watch.timeoutMs }),
  });
  const prefix = options.prefix ?? `it-operator-${randomBytes(4).toString('hex')}:`;
  const store = await createStore(
    options.redisUrl === undefined
      ? { dataDir: join(dataDirectory, 'store') }
      : { redisUrl: options.redisUrl, prefix },
  );
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(local.kubeconfigPath);
  const pepper = randomBytes(32);
  const credentialKey = randomBytes(32);
  const operators: RunningOperator[] = [];
  const kubectl = (args: readonly string[], input?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile(
        'kubectl',
        ['--kubeconfig', local.kubeconfigPath, ...args],
        { timeout: 20_000 },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`kubectl ${args.join(' ')}: ${stderr || error.message}`));
          else resolve(stdout);
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  return {
    local,
    dataDirectory,
    store,
    pepper,
    credentialKey,
    kubeConfig,
    startOperator: async (identity, overrides = {}) => {
      const operator = await startOperator({
        kubeConfig,
        store,
        namespace: 'tollgate-system',
        pepper,
        credentialKey,
        identity,
        logger: pino({ level: 'silent' }),
        leaseDurationMs: 3_000,
        renewIntervalMs: 500,
        metricsPort: 0,
        spendGauges: true,
        ...overrides,
      });
      operators.push(operator);
      return operator;
    },
    kubectl,
    apply: (yaml) => kubectl(['apply', '-f', '-'], yaml),
    getJson: async <T>(args: readonly string[]) =>
      JSON.parse(await kubectl(['get', ...args, '-o', 'json'])) as T,
    close: async () => {
      for (const operator of operators) await operator.close();
      await store.close();
      await local.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value other than undefined, or fails with the last observation. */
export async function waitFor<T>(
  description: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: string | undefined = undefined;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : JSON.stringify(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${description}${last === undefined ? '' : `: ${last}`}`);
}
