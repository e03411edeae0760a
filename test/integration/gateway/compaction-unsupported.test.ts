/**
 * Remote compaction where it cannot be served, through the official `openai` SDK: an upstream
 * without a compact endpoint (its 404 "Invalid URL", a framework's `Not Found`, a 405) is
 * answered 501 `TG_COMPACTION_UNSUPPORTED` in the OpenAI shape and costs nothing; a 404 about
 * the request itself (`model_not_found`) passes on as sent, and so does an upstream's refusal of
 * the v2 form's `compaction_trigger`; the Antigravity platform, which has no Responses API,
 * answers the same refusal after the key checks; a wrong method is a 405.
 */
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  putApiKeyUpstream,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { tinyUpstream, tinyServers } from './forwarding-setup.js';
import { settledRecord } from './upstream-failover-setup.js';

const namespace = 'team-no-compaction';
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
  for (const server of tinyServers()) server.closeAllConnections();
  await Promise.all(tinyServers().map((server) => new Promise((done) => server.close(done))));
  await store.close();
});

/** A key whose group's one upstream is at `baseURL`. */
async function keyFor(name: string, baseURL: string) {
  await putApiKeyUpstream(store, secrets, { name, platform: 'OpenAI', baseURL });
  return createKey(store, secrets, {
    platform: 'OpenAI',
    namespace,
    upstreams: [{ name, weight: 1, priority: 0 }],
  });
}

async function compactThrough(apiKey: string, baseURL = `${base}/v1`) {
  const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
  try {
    await client.responses.compact({ model: 'gpt-5.5', input: 'hi' });
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('the compaction succeeded');
}

function answering(status: number, body: string, contentType = 'application/json') {
  return tinyUpstream((_request, response) => {
    _request.resume();
    response.writeHead(status, { 'content-type': contentType });
    response.end(body);
  });
}

describe('an upstream without a compaction endpoint', () => {
  it('OpenAI-style "Invalid URL" 404: 501 TG_COMPACTION_UNSUPPORTED, nothing billed', async () => {
    // The simulator under a path prefix it does not serve: its unknown-route 404, code null.
    const key = await keyFor('no-compact-prefix', `${fake.url}/no-compaction`);
    const error = await compactThrough(key.value);
    expect(error.status).toBe(501);
    expect(error.error).toMatchObject({
      code: 'TG_COMPACTION_UNSUPPORTED',
      type: 'server_error',
      param: null,
    });
    expect(fake.requests.at(-1)?.path).toBe('/no-compaction/v1/responses/compact');
    const headers = error.headers as Headers | undefined;
    const requestId = headers?.get('x-tollgate-request-id') ?? '';
    const record = await settledRecord(store, namespace, requestId);
    expect(record).toMatchObject({ costNano: 0, upstream: 'no-compact-prefix' });
  });

  it.each([
    ['a framework 404', 404, '{"detail":"Not Found"}', 'application/json'],
    ['a plain 404 page', 404, 'Not Found', 'text/plain'],
    ['a 405', 405, '', 'text/plain'],
  ])('%s: 501 TG_COMPACTION_UNSUPPORTED', async (name, status, body, type) => {
    const url = await answering(status, body, type);
    const key = await keyFor(`no-compact-${String(status)}-${type.length}`, url);
    const error = await compactThrough(key.value);
    expect(error.status, name).toBe(501);
    expect(error.error).toMatchObject({ code: 'TG_COMPACTION_UNSUPPORTED' });
  });

  it('a 404 about the request itself passes on as the upstream sent it', async () => {
    const body = {
      error: {
        message: 'The model `gpt-5.5` does not exist',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    };
    const key = await keyFor('compact-model-missing', await answering(404, JSON.stringify(body)));
    const error = await compactThrough(key.value);
    expect(error.status).toBe(404);
    expect(error.error).toEqual(body.error);
  });
});

describe('the v2 form on an upstream that refuses compaction_trigger', () => {
  it('gets the upstream refusal, OpenAI-shaped, as sent', async () => {
    const refusal = {
      error: {
        message: "Invalid value: 'compaction_trigger'.",
        type: 'invalid_request_error',
        param: 'input[1].type',
        code: 'invalid_value',
      },
    };
    const key = await keyFor('no-trigger', await answering(400, JSON.stringify(refusal)));
    const client = new OpenAI({ apiKey: key.value, baseURL: `${base}/v1`, maxRetries: 0 });
    const input = [
      { role: 'user' as const, content: 'hi' },
      { type: 'compaction_trigger' as const },
    ];
    const error = await client.responses
      .create({ model: 'gpt-5.5', input, stream: true })
      .then(() => null)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toEqual(refusal.error);
  });
});

describe('the Antigravity platform', () => {
  it('has no compaction: 501 in the OpenAI shape after the key checks', async () => {
    const key = await createKey(store, secrets, { platform: 'Antigravity', namespace });
    const error = await compactThrough(key.value, `${base}/antigravity/v1`);
    expect(error.status).toBe(501);
    expect(error.error).toMatchObject({ code: 'TG_COMPACTION_UNSUPPORTED' });
    const unknown = await compactThrough('sk-tg-unknown', `${base}/antigravity/v1`);
    expect(unknown.status).toBe(401);
    expect(unknown.error).toMatchObject({ code: 'TG_KEY_UNKNOWN' });
  });
});

describe('the compact route', () => {
  it('takes POST only', async () => {
    const response = await fetch(`${base}/v1/responses/compact`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ error: { code: 'TG_METHOD_NOT_ALLOWED' } });
  });

  it('refuses an OpenAI key of another platform in the OpenAI shape', async () => {
    const key = await createKey(store, secrets, { platform: 'Anthropic', namespace });
    const error = await compactThrough(key.value);
    expect(error.status).toBe(403);
    expect(error.error).toMatchObject({ code: 'TG_PLATFORM_MISMATCH' });
  });
});
