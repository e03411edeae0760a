/**
 * `tollgate operator` as its own process (run-operator.ts: flags, secret files, Redis store), and
 * a hard crash: killed with SIGKILL it cannot release its Lease, so an in-process operator must
 * take over within the lease time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { hashKeyValue } from '../../../store/hash-key-value.js';
import { startOperator, type RunningOperator } from '../../../operator/start-operator.js';
import { pino } from 'pino';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

let harness: Harness;
let child: ChildProcess | undefined;
let survivor: RunningOperator | undefined;
const prefix = `it-operator-process-${randomBytes(4).toString('hex')}:`;

const apiKeyYaml = (name: string) => `
apiVersion: v1
kind: Secret
metadata: { name: ${name}-key, namespace: default }
stringData: { apiKey: ${name}-value-0123456789 }
---
apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata: { name: ${name}, namespace: default }
spec: { displayName: ${name} }
`;

async function readyReason(name: string): Promise<string | undefined> {
  const object = await harness.getJson<{
    status?: { conditions?: { type: string; reason: string }[] };
  }>(['apikey', name, '-n', 'default']);
  return object.status?.conditions?.find((condition) => condition.type === 'Ready')?.reason;
}

beforeAll(async () => {
  harness = await startHarness({ redisUrl: inject('redisUrl'), prefix });
  const folder = harness.dataDirectory;
  writeFileSync(join(folder, 'pepper'), harness.pepper, { mode: 0o600 });
  writeFileSync(join(folder, 'credential-key'), harness.credentialKey, { mode: 0o600 });
  child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      // Bounded even if the test runner dies: the child exits on its own after a minute.
      "setTimeout(() => process.exit(0), 60_000).unref(); import('./operator/run-operator.ts').then((m) => m.run(process.argv.slice(1)))",
      '--',
      '--kubeconfig',
      harness.local.kubeconfigPath,
      '--redis-prefix',
      prefix,
      '--metrics-port',
      '0',
      '--metrics-host',
      '127.0.0.1',
      '--lease-duration-seconds',
      '3',
      '--renew-interval-seconds',
      '0.5',
      '--log-level',
      'silent',
    ],
    {
      cwd: process.cwd(),
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH,
        REDIS_URL: inject('redisUrl'),
        TOLLGATE_PEPPER_FILE: join(folder, 'pepper'),
        TOLLGATE_CREDENTIAL_KEY_FILE: join(folder, 'credential-key'),
      },
    },
  );
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await survivor?.close();
  await harness.close();
});

it('runs as a process, and a second operator takes over after it is killed', async () => {
  await harness.apply(apiKeyYaml('from-process'));
  await waitFor(
    'the process operator to program the key',
    async () => ((await readyReason('from-process')) === 'NoGroup' ? true : undefined),
    20_000,
  );
  const policy = await harness.store.getKeyPolicy(
    hashKeyValue(harness.pepper, 'from-process-value-0123456789'),
  );
  expect(policy).toMatchObject({ name: 'from-process', namespace: 'default', state: 'NoGroup' });

  survivor = await startOperator({
    kubeConfig: harness.kubeConfig,
    store: harness.store,
    namespace: 'tollgate-system',
    pepper: harness.pepper,
    credentialKey: harness.credentialKey,
    identity: 'survivor',
    logger: pino({ level: 'silent' }),
    leaseDurationMs: 3_000,
    renewIntervalMs: 500,
  });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(survivor.isLeader()).toBe(false);

  child?.kill('SIGKILL');
  const killedAt = Date.now();
  const running = survivor;
  await waitFor(
    'the survivor to lead',
    () => Promise.resolve(running.isLeader() || undefined),
    8_000,
  );
  expect(Date.now() - killedAt).toBeLessThan(6_000);
  await harness.apply(apiKeyYaml('after-crash'));
  await waitFor('the survivor to program the new key', async () =>
    (await readyReason('after-crash')) === 'NoGroup' ? true : undefined,
  );
});
