/**
 * Notifications end to end (docs/notifications.md): the real operator, twice and both leading (two
 * Leases: two evaluators at once, as during a leader change), against the local control plane,
 * `kubectl apply` of a Notifier and its Secret, a real Redis, two gateway processes and the
 * simulator. Traffic through both gateways crosses 80 % and then 100 % of a key's daily window;
 * the account's balance falls below the notifier's threshold; the key expires within the notifier's
 * days. A receiver (a real HTTP server here) verifies every signature, answers the expiry event 500
 * twice, and must then see each event accepted exactly once, the expiry on the third attempt with
 * the same event id; the Notifier's status shows the history.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { verifyWebhookSignature } from '../../../operator/notify/sign-webhook-body.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { freePort } from '../../support/redis-server.js';
import { spawnRunGateway, waitUntilReady } from '../gateway/spawn-run-gateway.js';
import type { RunningOperator } from '../../../operator/start-operator.js';
import { decode, type KubeObject } from './operator-fixtures.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const NAMESPACE = 'team-notify';
const PREFIX = `tg-notify-${String(Date.now())}:`;
const SIGNING_SECRET = 'whsec-test-signing-secret';
/** The daily cap: small, so a few dozen calls of the simulator's answer cross it. */
const DAILY_CAP = '0.0001';

interface Received {
  eventId: string;
  type: string;
  body: Record<string, unknown>;
  signatureValid: boolean;
  answered: number;
}

let harness: Harness;
let provider: FakeProvider;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
const slackMessages: { text: string; blocks: unknown[] }[] = [];
const gateways: { child: ChildProcess; url: string }[] = [];
const operators: RunningOperator[] = [];

function startReceiver(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/slack') {
        slackMessages.push(JSON.parse(text) as { text: string; blocks: unknown[] });
        res.writeHead(200).end('ok');
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      const eventId = String(req.headers['tollgate-event-id']);
      const type = String(body.type);
      const signatureValid = verifyWebhookSignature({
        secret: SIGNING_SECRET,
        timestamp: Number(req.headers['tollgate-timestamp']),
        body: text,
        signature: String(req.headers['tollgate-signature']),
      });
      // The expiry event is refused twice (a receiver having trouble), then accepted.
      const earlier = received.filter((entry) => entry.type === 'KeyExpiring').length;
      const answered = type === 'KeyExpiring' && earlier < 2 ? 500 : 200;
      received.push({ eventId, type, body, signatureValid, answered });
      res.writeHead(answered).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve(server);
    }),
  );
}

function world(): string {
  const expires = new Date(Date.now() + 2 * 86_400_000).toISOString();
  return `
apiVersion: v1
kind: Namespace
metadata: { name: ${NAMESPACE} }
---
apiVersion: v1
kind: Secret
metadata: { name: notify-upstream, namespace: tollgate-system }
stringData: { apiKey: fake-upstream-key }
---
apiVersion: tollgate.dev/v1alpha1
kind: Upstream
metadata: { name: notify-openai }
spec:
  platform: OpenAI
  baseURL: ${provider.url}
  credentials:
    type: APIKey
    apiKey: { secretRef: { name: notify-upstream, key: apiKey } }
  chatCompletions: Native
---
apiVersion: tollgate.dev/v1alpha1
kind: Group
metadata: { name: notify-openai }
spec:
  platform: OpenAI
  upstreamRefs: [{ name: notify-openai }]
---
apiVersion: tollgate.dev/v1alpha1
kind: Account
metadata: { name: default, namespace: ${NAMESPACE} }
spec: { creditUSD: "1" }
---
apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata: { name: ci, namespace: ${NAMESPACE} }
spec:
  groupName: notify-openai
  expirationTime: "${expires}"
  limits: { dailyUSD: "${DAILY_CAP}" }
`;
}

function notifier(): string {
  return `
apiVersion: v1
kind: Secret
metadata:
  name: hooks
  namespace: ${NAMESPACE}
  labels: { tollgate.dev/notifier-secret: "true" }
stringData: { signingSecret: ${SIGNING_SECRET} }
---
apiVersion: tollgate.dev/v1alpha1
kind: Notifier
metadata: { name: budget, namespace: ${NAMESPACE} }
spec:
  webhook:
    url: ${receiverUrl}
    signingSecretRef: { name: hooks, key: signingSecret }
  events:
    keyWindows: { windows: [Daily] }
    keyExpiring: { withinDays: 3 }
    balanceBelow: { thresholdUSD: "0.99999" }
`;
}

async function startGateway(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawnRunGateway({
    args: [
      `--port=${String(port)}`,
      '--host=127.0.0.1',
      `--metrics-port=${String(await freePort())}`,
      '--metrics-host=127.0.0.1',
      `--redis-url=${inject('redisUrl')}`,
      `--redis-prefix=${PREFIX}`,
    ],
    env: {
      TOLLGATE_PEPPER_FILE: join(harness.dataDirectory, 'pepper'),
      TOLLGATE_CREDENTIAL_KEY_FILE: join(harness.dataDirectory, 'credential-key'),
      TOLLGATE_LOG_LEVEL: 'silent',
    },
  });
  const url = `http://127.0.0.1:${String(port)}`;
  await waitUntilReady(`${url}/readyz`);
  return { child, url };
}

beforeAll(async () => {
  harness = await startHarness({ redisUrl: inject('redisUrl'), prefix: PREFIX });
  provider = await startFakeProvider({ credential: null });
  receiver = await startReceiver();
  receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/hooks`;
  writeFileSync(join(harness.dataDirectory, 'pepper'), harness.pepper);
  writeFileSync(
    join(harness.dataDirectory, 'credential-key'),
    harness.credentialKey.toString('base64'),
  );
  const notifications = {
    notificationIntervalMs: 250,
    notifierAllowLoopback: true,
    notificationRetry: { maxAttempts: 5, baseMs: 300, maxMs: 1_000 },
    notificationTimeoutMs: 2_000,
  };
  // Two leaders (two Leases): both evaluate and deliver at once.
  operators.push(
    await harness.startOperator('notify-a', notifications),
    await harness.startOperator('notify-b', { ...notifications, leaseName: 'tollgate-operator-b' }),
  );
  await harness.apply(world());
  gateways.push(await startGateway(), await startGateway());
});

afterAll(async () => {
  for (const { child } of gateways) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await harness.close();
  await provider.close();
  receiver.close();
});

async function call(url: string, value: string): Promise<number> {
  const response = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${value}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200)
    refusals.push(`${String(response.statusCode)} ${text.slice(0, 200)}`);
  return response.statusCode;
}

/** The refusals' bodies, for the message of a failed expectation. */
const refusals: string[] = [];

interface NotifierObject extends KubeObject {
  status?: KubeObject['status'] & {
    delivered?: number;
    failed?: number;
    deliveries?: { id: string; type: string; state: string; attempts: number }[];
  };
}

it('delivers each event once, signed, retried with the same id, and shows the history', async () => {
  expect(operators.every((operator) => operator.isLeader())).toBe(true);
  const value = await waitFor('the key Secret', async () => {
    const secret = await harness.getJson<KubeObject>(['secret', 'ci-key', '-n', NAMESPACE]);
    const text = decode(secret);
    return text === '' ? undefined : text;
  });
  await waitFor('the key to be served', async () =>
    (await call(gateways[0]!.url, value)) === 200 ? true : undefined,
  );
  await harness.apply(notifier());

  const uid = (await harness.getJson<KubeObject>(['apikey', 'ci', '-n', NAMESPACE])).metadata.uid;
  const dailyUsed = async () =>
    (await harness.store.keyCounters(NAMESPACE, uid, Date.now())).windows.find(
      (window) => window.name === 'Daily',
    )?.usedNano ?? 0;
  // Calls through both gateways until the daily window is at 80 %: the first threshold event.
  let calls = 0;
  while ((await dailyUsed()) < 0.8 * Number(DAILY_CAP) * 1e9 && calls < 500) {
    expect(await call(gateways[calls % 2]!.url, value), refusals.join('; ')).toBe(200);
    calls += 1;
  }
  await waitFor(
    'the 80 % event',
    () =>
      Promise.resolve(
        received.some((entry) => entry.type === 'KeyWindowThreshold') ? true : undefined,
      ),
    30_000,
  );
  // Then on until the window refuses (spend at or past the cap): the 100 % event.
  let refused = false;
  for (let index = 0; index < 500 && !refused; index++) {
    const status = await call(gateways[index % 2]!.url, value);
    expect([200, 429]).toContain(status);
    refused = status === 429;
  }
  expect(refused).toBe(true);

  const accepted = () => received.filter((entry) => entry.answered === 200);
  await waitFor(
    'four accepted deliveries',
    () => Promise.resolve(accepted().length >= 4 ? true : undefined),
    30_000,
  );
  // More rounds of both operators: nothing is delivered again.
  await new Promise((resolve) => setTimeout(resolve, 2_000));

  expect(received.every((entry) => entry.signatureValid)).toBe(true);
  const byType = accepted().map((entry) => [entry.type, entry.body.figures] as const);
  expect(byType.map(([type]) => type).sort()).toEqual([
    'BalanceBelow',
    'KeyExpiring',
    'KeyWindowThreshold',
    'KeyWindowThreshold',
  ]);
  const thresholds = byType
    .filter(([type]) => type === 'KeyWindowThreshold')
    .map(([, figures]) => (figures as { thresholdPercent: number }).thresholdPercent);
  expect(thresholds).toEqual([80, 100]);
  const ids = accepted().map((entry) => entry.eventId);
  expect(new Set(ids).size).toBe(4);
  for (const entry of accepted()) expect(entry.body.id).toBe(entry.eventId);

  const expiry = received.filter((entry) => entry.type === 'KeyExpiring');
  expect(expiry.map((entry) => entry.answered)).toEqual([500, 500, 200]);
  expect(new Set(expiry.map((entry) => entry.eventId)).size).toBe(1);

  const status = await waitFor('the delivery history in the status', async () => {
    const object = await harness.getJson<NotifierObject>(['notifier', 'budget', '-n', NAMESPACE]);
    const found = object.status;
    return found?.delivered === 4 && found.deliveries?.length === 4 ? found : undefined;
  });
  expect(status.failed).toBe(0);
  expect(status.conditions?.find((condition) => condition.type === 'Ready')?.status).toBe('True');
  expect(status.deliveries?.every((delivery) => delivery.state === 'Delivered')).toBe(true);
  expect(status.deliveries?.find((delivery) => delivery.type === 'KeyExpiring')?.attempts).toBe(3);
  expect(new Set(status.deliveries?.map((delivery) => delivery.id))).toEqual(new Set(ids));

  // Both operators' counters together: each event delivered once, by one of them.
  let delivered = 0;
  for (const operator of operators) {
    const text = await operator.metrics.registry.getSingleMetricAsString(
      'tollgate_operator_notification_deliveries_total',
    );
    for (const line of text.split('\n')) {
      if (line.includes('outcome="delivered"')) delivered += Number(line.split(' ').pop());
    }
  }
  expect(delivered).toBe(4);
});

it('reports a missing Secret and an unmarked one alike on the status, sending nothing', async () => {
  const slackUrl = receiverUrl.replace('/hooks', '/slack');
  await harness.apply(`
apiVersion: tollgate.dev/v1alpha1
kind: Notifier
metadata: { name: no-secret, namespace: ${NAMESPACE} }
spec:
  slack: { webhookURLSecretRef: { name: absent, key: url } }
  events: { keyExpiring: { withinDays: 3 } }
---
apiVersion: v1
kind: Secret
metadata: { name: unmarked, namespace: ${NAMESPACE} }
stringData: { url: "${slackUrl}" }
---
apiVersion: tollgate.dev/v1alpha1
kind: Notifier
metadata: { name: unmarked-secret, namespace: ${NAMESPACE} }
spec:
  slack: { webhookURLSecretRef: { name: unmarked, key: url } }
  events: { keyExpiring: { withinDays: 3 } }
`);
  const readyOf = (name: string) =>
    waitFor(`the SecretMissing condition of ${name}`, async () => {
      const object = await harness.getJson<NotifierObject>(['notifier', name, '-n', NAMESPACE]);
      return object.status?.conditions?.find((condition) => condition.type === 'Ready');
    });
  const missing = await readyOf('no-secret');
  const unmarked = await readyOf('unmarked-secret');
  expect(missing).toMatchObject({ status: 'False', reason: 'SecretMissing' });
  expect(unmarked).toMatchObject({ status: 'False', reason: 'SecretMissing' });
  expect(unmarked.message).toBe(missing.message.replace('/absent ', '/unmarked '));
  // A few more rounds: the unmarked Secret's URL is never posted to.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(slackMessages).toHaveLength(0);
});

it('sends a ClusterNotifier its Slack message, from its Secret in the operator namespace', async () => {
  const slackUrl = receiverUrl.replace('/hooks', '/slack');
  await harness.apply(`
apiVersion: v1
kind: Secret
metadata: { name: ops-slack, namespace: tollgate-system }
stringData: { url: "${slackUrl}" }
---
apiVersion: tollgate.dev/v1alpha1
kind: ClusterNotifier
metadata: { name: ops }
spec:
  slack: { webhookURLSecretRef: { name: ops-slack, key: url } }
  events: { keyExpiring: { withinDays: 3 }, upstreamCircuitOpen: {} }
`);
  await waitFor('the Slack message', () =>
    Promise.resolve(slackMessages.length > 0 ? true : undefined),
  );
  // More rounds: the same fact is not sent again.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(slackMessages).toHaveLength(1);
  expect(slackMessages[0]?.text).toMatch(/^API key expiring: team-notify\/ApiKey\/ci \(expiresAt /);
  const status = await waitFor('the ClusterNotifier history', async () => {
    const object = await harness.getJson<NotifierObject>(['clusternotifier', 'ops']);
    return object.status?.delivered === 1 ? object.status : undefined;
  });
  expect(status.deliveries?.[0]).toMatchObject({ type: 'KeyExpiring', state: 'Delivered' });
});
