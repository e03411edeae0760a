/**
 * The in-process transport `tollgate local` gives its operator: requests go from
 * @kubernetes/client-node straight into the control plane's handler (no TLS, no socket; the
 * kubeconfig's server address is never dialled) and still through authentication and RBAC. An
 * operator on it programs a new key with the writes the API's semantics need and no more.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientRequest } from 'node:http';
import { ApiException, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessAgent, inProcessKubeConfig } from '../../../control-plane/connect-in-process.js';
import { startOperator, type RunningOperator } from '../../../operator/start-operator.js';
import type { Store } from '../../../store/store.js';
import { account, apiKey, GROUP, UPSTREAM, type KubeObject } from './operator-fixtures.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const OPERATOR_USER = 'tollgate-operator-test';
const OPERATOR_TOKEN = 'in-process-operator-token';

let harness: Harness;

/** An agent that records the method and path of every request sent through it. */
class CountingAgent extends InProcessAgent {
  readonly sent: { method: string; path: string }[] = [];

  addRequest(request: ClientRequest, options: object): void {
    this.sent.push({ method: request.method, path: request.path });
    (
      InProcessAgent.prototype as unknown as { addRequest: (...args: unknown[]) => void }
    ).addRequest.call(this, request, options);
  }
}

/** A kubeconfig for `token` whose server address has nothing listening: only in-process works. */
function unreachableKubeConfig(token: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'unreachable', server: 'https://127.0.0.1:1', skipTLSVerify: false }],
    users: [{ name: 'user', token }],
    contexts: [{ name: 'context', cluster: 'unreachable', user: 'user' }],
    currentContext: 'context',
  });
  return kubeConfig;
}

async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof ApiException) return error.code;
    throw error;
  }
}

/** Counts what the operator asks of the store (reads and writes of key documents). */
function countingStore(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const name = String(property);
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (value as (...values: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}

beforeAll(async () => {
  harness = await startHarness({});
  writeFileSync(
    join(harness.dataDirectory, 'tokens.csv'),
    `${OPERATOR_TOKEN},${OPERATOR_USER},uid-operator-test,""\n`,
  );
});

afterAll(async () => {
  await harness.close();
});

describe('the in-process transport', () => {
  it('authenticates and authorizes every request like the HTTPS port', async () => {
    const agent = new InProcessAgent(() => harness.local.connect());
    try {
      const list = (token: string) =>
        inProcessKubeConfig(unreachableKubeConfig(token), agent)
          .makeApiClient(CustomObjectsApi)
          .listNamespacedCustomObject({
            group: 'tollgate.dev',
            version: 'v1alpha1',
            namespace: 'default',
            plural: 'apikeys',
          });
      // An unknown token is not a user; a known user without a grant is refused.
      expect(await statusOf(list('no-such-token'))).toBe(401);
      expect(await statusOf(list(OPERATOR_TOKEN))).toBe(403);
      await harness.kubectl([
        'create',
        'clusterrole',
        'in-process-read-keys',
        '--verb=list',
        '--resource=apikeys.tollgate.dev',
      ]);
      await harness.kubectl([
        'create',
        'clusterrolebinding',
        'in-process-read-keys',
        '--clusterrole=in-process-read-keys',
        `--user=${OPERATOR_USER}`,
      ]);
      expect(await statusOf(list(OPERATOR_TOKEN))).toBe(200);
      // The grant is for list only: the same user still may not delete.
      const remove = inProcessKubeConfig(unreachableKubeConfig(OPERATOR_TOKEN), agent)
        .makeApiClient(CustomObjectsApi)
        .deleteCollectionNamespacedCustomObject({
          group: 'tollgate.dev',
          version: 'v1alpha1',
          namespace: 'default',
          plural: 'apikeys',
        });
      expect(await statusOf(remove)).toBe(403);
    } finally {
      agent.destroy();
    }
  });

  it('programs a new key with three API writes and no read of its document', async () => {
    const agent = new CountingAgent(() => harness.local.connect());
    const { store, calls } = countingStore(harness.store);
    let operator: RunningOperator | null = null;
    try {
      operator = await startOperator({
        kubeConfig: inProcessKubeConfig(harness.kubeConfig, agent),
        store,
        namespace: 'tollgate-system',
        pepper: harness.pepper,
        credentialKey: harness.credentialKey,
        identity: 'in-process',
        logger: pino({ level: 'silent' }),
        leaseDurationMs: 3_000,
        renewIntervalMs: 500,
      });
      const running = operator;
      await harness.apply(`${UPSTREAM}\n---\n${GROUP}\n---\n${account('default')}`);
      await waitFor('leadership', () => Promise.resolve(running.isLeader() ? true : undefined));
      await running.whenIdle();
      calls.clear();
      agent.sent.length = 0;
      await harness.apply(apiKey('default', 'counted'));
      const ready = await waitFor('the key Ready', async () => {
        const key = await harness.getJson<KubeObject>(['apikey', 'counted', '-n', 'default']);
        const condition = key.status?.conditions?.find((item) => item.type === 'Ready');
        return condition?.status === 'True' ? key : undefined;
      });
      await running.whenIdle();
      expect(ready.metadata.finalizers).toContain('tollgate.dev/finalizer');
      const writes = agent.sent
        .filter((request) => request.method !== 'GET')
        .filter((request) => /\/namespaces\/default\/(apikeys|secrets)(\/|$|\?)/.test(request.path))
        .map((request) => `${request.method} ${request.path.replace(/\?.*$/, '')}`);
      expect(writes.sort()).toEqual(
        [
          // The finalizer (metadata) and the status cannot share a write: a status write ignores
          // metadata, and a write of the object ignores status.
          'PATCH /apis/tollgate.dev/v1alpha1/namespaces/default/apikeys/counted',
          'PATCH /apis/tollgate.dev/v1alpha1/namespaces/default/apikeys/counted/status',
          'POST /api/v1/namespaces/default/secrets',
        ].sort(),
      );
      // The value was generated in that reconcile: no document can exist under its hash.
      expect(calls.get('getKeyPolicy') ?? 0).toBe(0);
      expect(calls.get('putKeyPolicy')).toBe(1);
    } finally {
      await operator?.close();
      agent.destroy();
    }
  });
});
