/**
 * OpenAI remote compaction through the gateway, with the official `openai` SDK as the client and
 * the simulator as the upstream: `POST /v1/responses/compact` forwarded to the upstream's own
 * compact endpoint and billed from its JSON usage; the v2 form (a `/v1/responses` whose input
 * ends with `compaction_trigger`) passed through byte for byte, metered from the stream, billed
 * once. Each call leaves one usage record whose cost is exactly what the key was charged.
 */
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_FAKE_CREDENTIAL,
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { KeyPolicy } from '../../../store/policy-documents.js';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { settledRecord } from './upstream-failover-setup.js';

const namespace = 'team-compaction';
const secrets = newSecrets();
let store: Store;
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  store = await openStore('memory', '');
  fake = await startFakeProvider({ keepRequests: 100 });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await fake.close();
  await store.close();
});

beforeEach(() => {
  fake.reset();
});

async function openAIKey(): Promise<{ value: string; policy: KeyPolicy }> {
  return createKey(store, secrets, { platform: 'OpenAI', namespace });
}

function client(apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 });
}

/** The key's spend once the call settled, and the one record of the call. */
async function billed(policy: KeyPolicy, requestId: string | null) {
  if (requestId === null) throw new Error('no x-tollgate-request-id');
  const record = await settledRecord(store, namespace, requestId);
  const counters = await store.keyCounters(namespace, policy.keyUid, Date.now());
  const records = (await store.pendingUsageRecords(namespace, 10_000)).filter(
    (candidate) => candidate.keyUid === policy.keyUid,
  );
  return { record, usedNano: counters.usedNano, records };
}

const history = [
  { role: 'user' as const, content: 'write a parser' },
  { role: 'assistant' as const, content: 'done' },
  { role: 'user' as const, content: 'now test it' },
];
const trigger = [...history, { type: 'compaction_trigger' as const }];

describe('POST /v1/responses/compact', () => {
  it('is forwarded to the upstream compact endpoint and billed from its usage', async () => {
    const key = await openAIKey();
    const { data, response } = await client(key.value)
      .responses.compact({ model: 'gpt-5.5', input: history })
      .withResponse();
    expect(data.object).toBe('response.compaction');
    expect(data.output.at(-1)).toMatchObject({ type: 'compaction', id: 'cmp_fake_1' });
    expect(data.output.filter((item) => item.type === 'compaction')).toHaveLength(1);
    const upstream = fake.requests.at(-1);
    expect(upstream?.path).toBe('/v1/responses/compact');
    expect(upstream?.headers.authorization).toBe(`Bearer ${DEFAULT_FAKE_CREDENTIAL}`);
    const { record, usedNano, records } = await billed(
      key.policy,
      response.headers.get('x-tollgate-request-id'),
    );
    expect(record).toMatchObject({
      status: 200,
      stream: false,
      accuracy: 'exact',
      model: 'gpt-5.5',
      attempts: 1,
    });
    expect(record.usage.inputUncached).toBe(data.usage.input_tokens);
    expect(record.usage.output).toBe(data.usage.output_tokens);
    expect(record.costNano).toBeGreaterThan(0);
    expect(records).toHaveLength(1);
    expect(usedNano).toBe(record.costNano);
  });

  it('passes the caller body on byte for byte', async () => {
    const key = await openAIKey();
    const body = JSON.stringify({ model: 'gpt-5.5', input: history, instructions: 'x' });
    const answer = await fetch(`${base}/v1/responses/compact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.value}`, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    await answer.json();
    expect(fake.requests.at(-1)?.rawBody).toBe(body);
  });
});

describe('the v2 form: /v1/responses ending with compaction_trigger', () => {
  it('streams the compaction item to the client byte for byte, billed once from the stream', async () => {
    const key = await openAIKey();
    const body = JSON.stringify({ model: 'gpt-5.5', input: trigger, stream: true });
    const direct = await fetch(`${fake.url}/v1/responses`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEFAULT_FAKE_CREDENTIAL}`,
        'content-type': 'application/json',
      },
      body,
    });
    const expected = Buffer.from(await direct.arrayBuffer());
    const answer = await fetch(`${base}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.value}`, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(200);
    const received = Buffer.from(await answer.arrayBuffer());
    expect(received.equals(expected)).toBe(true);
    const text = received.toString('utf8');
    expect(text).toContain('"type":"response.output_item.done"');
    expect(text).toContain('"item":{"type":"compaction"');
    const { record, usedNano, records } = await billed(
      key.policy,
      answer.headers.get('x-tollgate-request-id'),
    );
    expect(record).toMatchObject({ status: 200, stream: true, accuracy: 'exact' });
    expect(record.usage.inputUncached).toBe(Math.ceil(Buffer.byteLength(body) / 4));
    expect(record.usage.output).toBeGreaterThan(0);
    expect(records).toHaveLength(1);
    expect(usedNano).toBe(record.costNano);
  });

  it('reaches the SDK as exactly one compaction item, completed.output empty', async () => {
    const key = await openAIKey();
    const stream = await client(key.value).responses.create({
      model: 'gpt-5.5',
      input: trigger,
      stream: true,
    });
    const events: { type: string; item?: unknown; response?: { output: unknown[] } }[] = [];
    for await (const event of stream) events.push(event);
    const done = events.filter((event) => event.type === 'response.output_item.done');
    expect(done).toHaveLength(1);
    const item = done[0]?.item as Record<string, unknown> | undefined;
    expect(Object.keys(item ?? {}).sort()).toEqual(['encrypted_content', 'id', 'type']);
    expect(item).toMatchObject({ type: 'compaction', id: 'cmp_fake_1' });
    const completed = events.at(-1);
    expect(completed?.type).toBe('response.completed');
    expect(completed?.response?.output).toEqual([]);
  });

  it('is billed once when not streamed too', async () => {
    const key = await openAIKey();
    const { data, response } = await client(key.value)
      .responses.create({ model: 'gpt-5.5', input: trigger })
      .withResponse();
    expect(data.output).toMatchObject([{ type: 'compaction' }]);
    const { record, usedNano, records } = await billed(
      key.policy,
      response.headers.get('x-tollgate-request-id'),
    );
    expect(record).toMatchObject({ status: 200, stream: false, accuracy: 'exact' });
    expect(records).toHaveLength(1);
    expect(usedNano).toBe(record.costNano);
    expect(record.costNano).toBeGreaterThan(0);
  });
});
