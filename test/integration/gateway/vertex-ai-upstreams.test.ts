/**
 * Google Vertex AI upstreams through the gateway, with the official SDKs as clients: Claude
 * (`@anthropic-ai/sdk`, streamed and not, count_tokens) with a service account key, Gemini
 * (`@google/genai`, streamed and not) with Workload Identity; tokens from the fake Google token
 * endpoint (the JWT verified against the key's public half) and the fake GKE metadata server; the
 * fake Vertex AI server checks every bearer token and Vertex's body rules. Records and billing;
 * one token request for many concurrent calls; failover from a throttled Vertex AI upstream to a
 * first-party one, which then cools down. Memory store.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GCPCredentials } from '../../../gateway/spec/resolved-upstream.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { sealCredential } from '../../../store/seal-credential.js';
import type { Platform, Store } from '../../../store/store.js';
import {
  createServiceAccount,
  startFakeGoogleTokenEndpoint,
  type FakeGoogleTokenEndpoint,
  type ServiceAccount,
} from '../../support/fake-google-token-endpoint.js';
import {
  startFakeMetadataServer,
  type FakeMetadataServer,
} from '../../support/fake-gke-metadata-server.js';
import { startFakeVertexAi } from '../../support/fake-vertex-ai.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  putApiKeyUpstream,
  writeAccount,
} from '../../support/gateway-fixture.js';
import { inOrder, settledRecord } from './upstream-failover-setup.js';

const secrets = newSecrets();
const namespace = 'team-vertex';
let store: Store;
let tokens: FakeGoogleTokenEndpoint;
let metadata: FakeMetadataServer;
let vertex: FakeProvider;
let direct: FakeProvider;
let account: ServiceAccount;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  store = await openStore('memory', '');
  tokens = await startFakeGoogleTokenEndpoint();
  metadata = await startFakeMetadataServer(tokens.issuer);
  vertex = await startFakeVertexAi({ issuer: tokens.issuer, keepRequests: 200 });
  direct = await startFakeProvider({ keepRequests: 50 });
  account = createServiceAccount({ tokenUri: tokens.url });
  tokens.trust(account);
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets, {
    config: {
      providerEndpoints: { awsSts: null, gceMetadata: metadata.host, azureAuthority: null },
    },
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await Promise.all([tokens.close(), metadata.close(), vertex.close(), direct.close()]);
  await store.close();
});

afterEach(() => {
  vertex.reset();
  tokens.replyDelayMs = 0;
});

/** A Vertex AI upstream with a fresh name (no test sees another's token or cool-down). */
async function putVertexUpstream(options: {
  platform: Platform;
  credentials: GCPCredentials;
  location?: string;
  modelOverrides?: Record<string, string>;
}): Promise<string> {
  const name = `vertex-${options.platform.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  await store.putUpstream({
    digest: randomUUID(),
    name,
    platform: options.platform,
    baseURL: '',
    sealedCredential: sealCredential(secrets.credentialKey, JSON.stringify(options.credentials)),
    credentialType: options.credentials.type,
    oauth: null,
    maxConcurrent: 0,
    modelOverrides: options.modelOverrides ?? {},
    chatCompletions: 'Translate',
    provider: {
      kind: 'GCPVertexAI',
      project: 'acme-ml',
      location: options.location ?? 'us-east5',
      endpoint: vertex.url,
    },
  });
  return name;
}

const serviceAccount = (): GCPCredentials => ({
  type: 'GCPServiceAccount',
  serviceAccountJson: account.keyJson,
});

async function keyFor(platform: Platform, upstreams: string[]): Promise<string> {
  const created = await createKey(store, secrets, {
    platform,
    namespace,
    upstreams: inOrder(...upstreams),
  });
  return created.value;
}

const claudeModel = 'claude-sonnet-4-6';
const claudeOnVertex = 'claude-sonnet-4-6@20250929';
const claudePath = (method: string, model = claudeOnVertex) =>
  `/v1/projects/acme-ml/locations/us-east5/publishers/anthropic/models/${model}:${method}`;

function anthropic(apiKey: string): Anthropic {
  return new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });
}

describe('Claude on Vertex AI with a service account key', () => {
  it('creates a message: Vertex path and body, a verified token, the record billed', async () => {
    const upstream = await putVertexUpstream({
      platform: 'Anthropic',
      credentials: serviceAccount(),
      modelOverrides: { [claudeModel]: claudeOnVertex },
    });
    const apiKey = await keyFor('Anthropic', [upstream]);
    const { data, response } = await anthropic(apiKey)
      .messages.create({
        model: claudeModel,
        max_tokens: 32,
        messages: [{ role: 'user', content: 'Hello' }],
      })
      .withResponse();
    expect(data.type).toBe('message');
    const sent = vertex.requests.at(-1);
    expect(sent?.path).toBe(claudePath('rawPredict'));
    expect(sent?.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
    expect(sent?.body).not.toHaveProperty('model');
    expect(sent?.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(JSON.stringify(sent?.headers)).not.toContain(apiKey);
    expect(tokens.refusals).toEqual([]);
    const record = await settledRecord(
      store,
      namespace,
      String(response.headers.get('x-tollgate-request-id')),
    );
    expect(record).toMatchObject({
      status: 200,
      stream: false,
      upstream,
      model: claudeModel,
      upstreamModel: claudeOnVertex,
      accuracy: 'exact',
    });
    expect(record.usage.output).toBe(data.usage.output_tokens);
    expect(record.costNano).toBeGreaterThan(0);
  });

  it('streams a message as first-party SSE (no vertex_event), billed from the stream', async () => {
    const upstream = await putVertexUpstream({
      platform: 'Anthropic',
      credentials: serviceAccount(),
      modelOverrides: { [claudeModel]: claudeOnVertex },
    });
    const apiKey = await keyFor('Anthropic', [upstream]);
    const stream = anthropic(apiKey).messages.stream({
      model: claudeModel,
      max_tokens: 32,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe('end_turn');
    expect(types).not.toContain('vertex_event');
    expect(types.at(-1)).toBe('message_stop');
    expect(vertex.requests.at(-1)?.path).toBe(claudePath('streamRawPredict'));
    const raw = await request(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: claudeModel,
        max_tokens: 8,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    const text = await raw.body.text();
    expect(raw.headers['content-type']).toContain('text/event-stream');
    expect(text).toContain('event: message_delta');
    expect(text).not.toContain('vertex_event');
    const record = await settledRecord(
      store,
      namespace,
      String(raw.headers['x-tollgate-request-id']),
    );
    expect(record).toMatchObject({ status: 200, stream: true, upstream, accuracy: 'exact' });
    expect(record.costNano).toBeGreaterThan(0);
  });

  it('counts tokens on count-tokens:rawPredict', async () => {
    const upstream = await putVertexUpstream({
      platform: 'Anthropic',
      credentials: serviceAccount(),
    });
    const apiKey = await keyFor('Anthropic', [upstream]);
    const counted = await anthropic(apiKey).messages.countTokens({
      model: claudeModel,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const sent = vertex.requests.at(-1);
    expect(sent?.path).toBe(claudePath('rawPredict', 'count-tokens'));
    expect(sent?.body).toMatchObject({
      model: claudeModel,
      anthropic_version: 'vertex-2023-10-16',
    });
  });

  it('asks the token endpoint once for many concurrent calls', async () => {
    const fresh = createServiceAccount({
      tokenUri: tokens.url,
      clientEmail: `burst-${randomUUID().slice(0, 8)}@acme-ml.iam.gserviceaccount.com`,
    });
    tokens.trust(fresh);
    const upstream = await putVertexUpstream({
      platform: 'Anthropic',
      credentials: { type: 'GCPServiceAccount', serviceAccountJson: fresh.keyJson },
    });
    const apiKey = await keyFor('Anthropic', [upstream]);
    tokens.replyDelayMs = 200;
    const before = tokens.grants;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        anthropic(apiKey).messages.create({
          model: claudeModel,
          max_tokens: 8,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      ),
    );
    expect(answers.map((answer) => answer.stop_reason)).toEqual(Array(12).fill('end_turn'));
    expect(tokens.grants - before).toBe(1);
    const bearers = new Set(vertex.requests.map((sent) => sent.headers.authorization));
    expect(bearers.size).toBe(1);
  });
});

describe('Gemini on Vertex AI with Workload Identity', () => {
  it('generates and streams content through @google/genai, billed', async () => {
    const upstream = await putVertexUpstream({
      platform: 'Gemini',
      credentials: { type: 'GCPWorkloadIdentity' },
      location: 'global',
    });
    const apiKey = await keyFor('Gemini', [upstream]);
    const client = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: base } });
    const calls = metadata.tokenCalls;
    const generated = await client.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hi',
    });
    expect(generated.text).toMatch(/\S/);
    const models =
      '/v1/projects/acme-ml/locations/global/publishers/google/models/gemini-2.5-flash';
    expect(vertex.requests.at(-1)?.path).toBe(`${models}:generateContent`);
    let streamed = '';
    for await (const chunk of await client.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'hi',
    })) {
      streamed += chunk.text ?? '';
    }
    expect(streamed).toMatch(/\S/);
    const sent = vertex.requests.at(-1);
    expect(sent?.path).toBe(`${models}:streamGenerateContent`);
    expect(sent?.query).toEqual({ alt: 'sse' });
    expect(sent?.headers['x-goog-api-key']).toBeUndefined();
    expect(metadata.tokenCalls - calls).toBeLessThanOrEqual(1);
    const records = (await store.pendingUsageRecords(namespace, 10_000)).filter(
      (record) => record.upstream === upstream,
    );
    expect(records.map((record) => record.stream).sort()).toEqual([false, true]);
    for (const record of records) expect(record.costNano).toBeGreaterThan(0);
  });
});

describe('a throttled Vertex AI upstream in a pool with a first-party one', () => {
  it('fails over on 429 RESOURCE_EXHAUSTED, then skips the cooling upstream', async () => {
    const throttled = await putVertexUpstream({
      platform: 'Anthropic',
      credentials: serviceAccount(),
    });
    const firstParty = `direct-${randomUUID().slice(0, 8)}`;
    await putApiKeyUpstream(store, secrets, {
      name: firstParty,
      platform: 'Anthropic',
      baseURL: direct.url,
    });
    const apiKey = await keyFor('Anthropic', [throttled, firstParty]);
    vertex.setBehaviour({ status: 429 });
    const { data, response } = await anthropic(apiKey)
      .messages.create({
        model: claudeModel,
        max_tokens: 8,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .withResponse();
    expect(data.type).toBe('message');
    expect(vertex.requests).toHaveLength(1);
    const record = await settledRecord(
      store,
      namespace,
      String(response.headers.get('x-tollgate-request-id')),
    );
    expect(record).toMatchObject({ status: 200, upstream: firstParty, attempts: 2 });
    const health = (await store.upstreamHealth([throttled], Date.now())).get(throttled);
    expect(health).toMatchObject({ state: 'CoolingDown', cause: 'rate-limited' });
    await anthropic(apiKey).messages.create({
      model: claudeModel,
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(vertex.requests).toHaveLength(1);
  });

  it('answers a caller whose only upstream is throttled with an Anthropic rate limit error', async () => {
    const throttled = await putVertexUpstream({
      platform: 'Anthropic',
      credentials: serviceAccount(),
    });
    const apiKey = await keyFor('Anthropic', [throttled]);
    vertex.setBehaviour({ status: 429 });
    const error = await anthropic(apiKey)
      .messages.create({
        model: claudeModel,
        max_tokens: 8,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
  });
});
