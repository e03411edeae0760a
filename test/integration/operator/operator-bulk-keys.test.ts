/**
 * Bulk key programming with the real local control plane, real kubectl and a real Redis: a bulk of
 * ApiKeys applied in one `kubectl apply` all end Ready with documents the gateway admits, one key
 * that cannot be programmed does not hold the others back, and a suspension sent while an operator
 * works through a backlog of every key takes effect ahead of that backlog.
 */
import { execFile } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BULK_NAMESPACE,
  PROBE_KEY,
  renderBulkKeys,
  renderBulkWorld,
} from '../../../bench/macro/render-bulk-key-manifests.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { startOperator, type RunningOperator } from '../../../operator/start-operator.js';
import { hashKeyValue } from '../../../store/hash-key-value.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { buildGateway } from '../../support/gateway-fixture.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const BULK = 400;
/** Its default Secret name, `<name>-key`, is longer than the 253 characters a name may have. */
const UNPROGRAMMABLE = `long-${'x'.repeat(246)}`;

let redis: RedisServer;
let harness: Harness;
let provider: FakeProvider;
let gateway: FastifyInstance;
let operator: RunningOperator;

/** `name=value` lines through jsonpath: the JSON of hundreds of objects exceeds the output buffer. */
async function lines(args: readonly string[], jsonpath: string): Promise<Map<string, string>> {
  const text = await harness.kubectl(['get', ...args, '-o', `jsonpath=${jsonpath}`]);
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out.set(line.slice(0, at), line.slice(at + 1));
  }
  return out;
}

/** Every ApiKey of the namespace and the status of its Ready condition ('' when none yet). */
function readiness(): Promise<Map<string, string>> {
  return lines(
    ['apikeys', '-n', BULK_NAMESPACE],
    '{range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}',
  );
}

async function keyValues(): Promise<Map<string, string>> {
  const encoded = await lines(
    ['secrets', '-n', BULK_NAMESPACE],
    '{range .items[*]}{.metadata.name}={.data.apiKey}{"\\n"}{end}',
  );
  const values = new Map<string, string>();
  for (const [name, data] of encoded) {
    if (data !== '') values.set(name.replace(/-key$/, ''), Buffer.from(data, 'base64').toString());
  }
  return values;
}

async function call(value: string): Promise<{ status: number; code: string | undefined }> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${value}`, 'content-type': 'application/json' },
    payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
  });
  return { status: response.statusCode, code: /"(TG_[A-Z_]+)"/.exec(response.body)?.[1] };
}

beforeAll(async () => {
  redis = await startRedisServer();
  harness = await startHarness({ redisUrl: redis.url });
  provider = await startFakeProvider({ credential: null });
  gateway = buildGateway(harness.store, {
    pepper: harness.pepper,
    credentialKey: harness.credentialKey,
  });
  operator = await harness.startOperator('bulk-a');
  await harness.apply(renderBulkWorld({ providerUrl: provider.url }));
});

afterAll(async () => {
  await gateway.close();
  await harness.close();
  await provider.close();
  await redis.stop();
});

describe('bulk key programming', () => {
  it('programs every key of one kubectl apply; one that fails does not hold the others back', async () => {
    const manifest = `${renderBulkKeys(BULK)}---
apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata:
  name: ${UNPROGRAMMABLE}
  namespace: ${BULK_NAMESPACE}
spec:
  groupName: bulk-openai
`;
    // Longer than the harness's kubectl deadline: hundreds of objects on a busy machine.
    await new Promise<void>((resolve, reject) => {
      const child = execFile(
        'kubectl',
        ['--kubeconfig', harness.local.kubeconfigPath, 'apply', '-f', '-'],
        { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
        (error) => {
          if (error) reject(new Error(error.message));
          else resolve();
        },
      );
      child.stdin?.end(manifest);
    });
    const keys = await waitFor(
      'every bulk key Ready',
      async () => {
        const states = await readiness();
        const ready = [...states.values()].filter((state) => state === 'True').length;
        return ready === BULK + 1 ? states : undefined;
      },
      120_000,
    );
    expect(keys.size).toBe(BULK + 2);
    expect(keys.get(UNPROGRAMMABLE)).not.toBe('True');

    const digests = await harness.store.listKeyPolicyDigests();
    expect(digests.size).toBe(BULK + 1);
    const values = await keyValues();
    expect(values.size).toBe(BULK + 1);
    for (const [name, value] of values) {
      expect(digests.has(hashKeyValue(harness.pepper, value)), name).toBe(true);
    }
    // The gateway admits the keys: every tenth of them, and the first and last.
    const sample = [...values].filter((_, index) => index % 10 === 0 || index === values.size - 1);
    for (const [name, value] of sample) {
      expect(await call(value), name).toEqual({ status: 200, code: undefined });
    }
  });

  it('applies a suspension ahead of a backlog of every key', async () => {
    const probe = (await keyValues()).get(PROBE_KEY) ?? '';
    expect((await call(probe)).status).toBe(200);
    const probeHash = hashKeyValue(harness.pepper, probe);
    // A new leader replays every key into its queue; the edit arrives behind that backlog.
    await operator.close();
    // One bulk worker, so the replay lasts long enough to be behind of.
    const successor = await startOperator({
      kubeConfig: harness.kubeConfig,
      store: harness.store,
      namespace: 'tollgate-system',
      pepper: harness.pepper,
      credentialKey: harness.credentialKey,
      identity: 'bulk-b',
      logger: pino({ level: 'silent' }),
      leaseDurationMs: 3_000,
      renewIntervalMs: 500,
      workers: 1,
    });
    await waitFor('the new operator to lead', () =>
      Promise.resolve(successor.isLeader() ? true : undefined),
    );
    const custom = harness.kubeConfig.makeApiClient(CustomObjectsApi);
    await custom.patchNamespacedCustomObject(
      {
        group: 'tollgate.dev',
        version: 'v1alpha1',
        plural: 'apikeys',
        namespace: BULK_NAMESPACE,
        name: PROBE_KEY,
        body: { spec: { suspend: true } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const reconciles = async (): Promise<number> =>
      (await successor.metrics.reconciles.get()).values
        .filter((value) => value.labels.kind === 'ApiKey')
        .reduce((sum, value) => sum + value.value, 0);
    const deadline = Date.now() + 30_000;
    let reconcilesWhenSuspended = -1;
    while (reconcilesWhenSuspended < 0 && Date.now() < deadline) {
      const counted = await reconciles();
      if ((await harness.store.getKeyPolicy(probeHash))?.suspended === true) {
        reconcilesWhenSuspended = counted;
      } else await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // First come first served, the edit would wait for the whole replay (BULK + 2 keys).
    expect(reconcilesWhenSuspended).toBeGreaterThanOrEqual(0);
    expect(reconcilesWhenSuspended).toBeLessThan(BULK / 2);
    // The gateway reuses a key policy read under 500 ms ago: the suspension holds within 1 s.
    const written = Date.now();
    let refused = await call(probe);
    while (refused.status !== 403 && Date.now() - written < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      refused = await call(probe);
    }
    expect(refused).toEqual({ status: 403, code: 'TG_KEY_SUSPENDED' });
    await successor.whenIdle();
    await successor.close();
  });
});
