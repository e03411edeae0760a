/**
 * The Vertex AI provider against real HTTP fakes: tokens from the fake Google token endpoint (the
 * JWT verified against the service account's public key) and from the fake GKE metadata server,
 * calls answered by the fake Vertex AI server (bearer token checked, Vertex's body rules applied).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createGcpVertexAiProvider } from '../../../gateway/providers/gcp-vertex-ai/create-gcp-vertex-ai-provider.js';
import { isGatewayError } from '../../../gateway/errors/gateway-error.js';
import type { GCPCredentials, ResolvedUpstream } from '../../../gateway/spec/resolved-upstream.js';
import type { PreparedCall, ProviderCall } from '../../../gateway/spec/upstream-provider.js';
import type { FakeProvider } from '../../../local/simulator/start-fake-provider.js';
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

let now = Date.now();
const clock = (): number => now;
const noEndpoints = { awsSts: null, gceMetadata: null, azureAuthority: null };
let tokens: FakeGoogleTokenEndpoint;
let metadata: FakeMetadataServer;
let vertex: FakeProvider;
let account: ServiceAccount;

beforeAll(async () => {
  tokens = await startFakeGoogleTokenEndpoint({ clock, expiresInSeconds: 3600 });
  metadata = await startFakeMetadataServer(tokens.issuer);
  vertex = await startFakeVertexAi({ issuer: tokens.issuer });
  account = createServiceAccount({ tokenUri: tokens.url });
  tokens.trust(account);
});

afterAll(async () => {
  await Promise.all([tokens.close(), metadata.close(), vertex.close()]);
});

afterEach(() => {
  vertex.reset();
  tokens.replyDelayMs = 0;
});

function upstream(platform: 'Anthropic' | 'Gemini', credentials: GCPCredentials): ResolvedUpstream {
  return {
    name: `vertex-${platform.toLowerCase()}`,
    platform,
    origin: 'https://unused.invalid',
    basePath: '',
    credential: '',
    oauth: null,
    maxConcurrent: 0,
    requestsPerMinute: 0,
    modelOverrides: {},
    chatCompletions: 'Translate',
    weight: 1,
    priority: 0,
    priceOverrides: null,
    responsesWebSocket: false,
    provider: {
      kind: 'GCPVertexAI',
      project: 'acme-ml',
      location: 'us-east5',
      endpoint: vertex.url,
      credentials,
    },
  };
}

const claudeCall = (stream: boolean): ProviderCall => ({
  platform: 'Anthropic',
  method: 'POST',
  path: '/v1/messages',
  headers: { 'anthropic-version': '2023-06-01' },
  body: Buffer.from(
    JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 32,
      stream,
      messages: [{ role: 'user', content: 'hello' }],
    }),
  ),
  stream,
  model: 'claude-sonnet-4-5@20250929',
});

const geminiCall: ProviderCall = {
  platform: 'Gemini',
  method: 'POST',
  path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
  headers: {},
  body: Buffer.from(JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })),
  stream: true,
  model: null,
};

async function send(prepared: PreparedCall) {
  const response = await request(`${prepared.origin}${prepared.path}`, {
    method: 'POST',
    headers: prepared.headers,
    body: prepared.body,
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  return {
    status: response.statusCode,
    contentType: String(response.headers['content-type'] ?? ''),
    headers: response.headers as Record<string, string>,
    bytes,
  };
}

const serviceAccount = () =>
  ({ type: 'GCPServiceAccount', serviceAccountJson: account.keyJson }) as const;

describe('Vertex AI through the provider', () => {
  it('answers Claude with a service account token, streamed as first-party SSE', async () => {
    const provider = createGcpVertexAiProvider({ clock, endpoints: noEndpoints });
    const grantsBefore = tokens.grants;
    const prepared = await provider.prepare(
      claudeCall(true),
      upstream('Anthropic', serviceAccount()),
    );
    expect(prepared.origin).toBe(vertex.url);
    expect(prepared.path).toBe(
      '/v1/projects/acme-ml/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    );
    const reply = await send(prepared);
    expect(reply.status).toBe(200);
    expect(reply.bytes.toString()).toContain('event: vertex_event');
    const decoder = provider.decodeReply(claudeCall(true), reply);
    expect(decoder).not.toBeNull();
    const decoded = Buffer.concat([
      decoder?.push(reply.bytes) ?? Buffer.alloc(0),
      decoder?.end() ?? Buffer.alloc(0),
    ]).toString();
    expect(decoded).not.toContain('vertex_event');
    expect(decoded).toContain('event: message_delta');
    expect(decoded.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
    expect(tokens.grants - grantsBefore).toBe(1);
    expect(tokens.refusals).toEqual([]);
    const sent = vertex.requests.at(-1);
    expect(sent?.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('answers Claude unstreamed as the Anthropic message, with no decoder', async () => {
    const provider = createGcpVertexAiProvider({ clock, endpoints: noEndpoints });
    const reply = await send(
      await provider.prepare(claudeCall(false), upstream('Anthropic', serviceAccount())),
    );
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.bytes.toString())).toMatchObject({
      type: 'message',
      model: 'claude-sonnet-4-5@20250929',
      usage: { output_tokens: expect.any(Number) as number },
    });
    expect(provider.decodeReply(claudeCall(false), reply)).toBeNull();
  });

  it('answers Gemini streamed as SSE, with Workload Identity from the metadata server', async () => {
    const provider = createGcpVertexAiProvider({
      clock,
      endpoints: { ...noEndpoints, gceMetadata: metadata.host },
    });
    const before = metadata.tokenCalls;
    const prepared = await provider.prepare(
      geminiCall,
      upstream('Gemini', { type: 'GCPWorkloadIdentity' }),
    );
    const reply = await send(prepared);
    expect(reply.status).toBe(200);
    expect(reply.contentType).toContain('text/event-stream');
    expect(reply.bytes.toString()).toContain('"usageMetadata"');
    expect(provider.decodeReply(geminiCall, reply)).toBeNull();
    await provider.prepare(geminiCall, upstream('Gemini', { type: 'GCPWorkloadIdentity' }));
    expect(metadata.tokenCalls - before).toBe(1);
  });

  it('asks for one token for many concurrent calls, and again only near its expiry', async () => {
    const provider = createGcpVertexAiProvider({ clock, endpoints: noEndpoints });
    const target = upstream('Anthropic', serviceAccount());
    tokens.replyDelayMs = 100;
    const before = tokens.grants;
    const prepared = await Promise.all(
      Array.from({ length: 20 }, () => provider.prepare(claudeCall(false), target)),
    );
    expect(tokens.grants - before).toBe(1);
    expect(new Set(prepared.map((call) => call.headers.authorization)).size).toBe(1);
    now += 3600_000 - 120_000;
    await provider.prepare(claudeCall(false), target);
    expect(tokens.grants - before).toBe(1);
    now += 90_000; // within the refresh margin of the expiry
    const refreshed = await provider.prepare(claudeCall(false), target);
    expect(tokens.grants - before).toBe(2);
    expect(refreshed.headers.authorization).not.toBe(prepared[0]?.headers.authorization);
    expect((await send(refreshed)).status).toBe(200);
  });

  it('asks again after invalidate (a token Vertex refused)', async () => {
    const provider = createGcpVertexAiProvider({ clock, endpoints: noEndpoints });
    const target = upstream('Anthropic', serviceAccount());
    await provider.prepare(claudeCall(false), target);
    tokens.issuer.revokeAll();
    const stale = await send(await provider.prepare(claudeCall(false), target));
    expect(stale.status).toBe(401);
    provider.invalidate?.(target);
    expect((await send(await provider.prepare(claudeCall(false), target))).status).toBe(200);
  });

  it('is refused by the token endpoint for a key it does not trust', async () => {
    const provider = createGcpVertexAiProvider({ clock, endpoints: noEndpoints });
    const stranger = createServiceAccount({
      tokenUri: tokens.url,
      clientEmail: 'x@y.iam.gserviceaccount.com',
    });
    const refusals = tokens.refusals.length;
    const failure = await provider
      .prepare(
        claudeCall(false),
        upstream('Anthropic', { type: 'GCPServiceAccount', serviceAccountJson: stranger.keyJson }),
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isGatewayError(failure) && failure.code).toBe('TG_UPSTREAM_AUTH_FAILED');
    expect(tokens.refusals.slice(refusals)).toEqual(['Invalid JWT Signature.']);
  });

  it('maps a 429 RESOURCE_EXHAUSTED to Anthropic’s rate_limit_error (Gemini keeps Google’s shape)', async () => {
    const provider = createGcpVertexAiProvider({ clock, endpoints: noEndpoints });
    vertex.setBehaviour({ status: 429 });
    const claude = await send(
      await provider.prepare(claudeCall(true), upstream('Anthropic', serviceAccount())),
    );
    expect(claude.status).toBe(429);
    expect(JSON.parse(claude.bytes.toString())).toMatchObject({
      error: { status: 'RESOURCE_EXHAUSTED' },
    });
    const mapped = provider.mapError?.(claudeCall(true), claude);
    expect(mapped?.status).toBe(429);
    expect(JSON.parse(mapped?.bytes.toString() ?? '')).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
    const gemini = await send(
      await provider.prepare(geminiCall, upstream('Gemini', serviceAccount())),
    );
    expect(gemini.status).toBe(429);
    expect(provider.mapError?.(geminiCall, gemini)).toBeNull();
  });

  it('is refused by the fake Vertex AI for a body Vertex refuses (model in the body)', async () => {
    const provider = createGcpVertexAiProvider({ clock, endpoints: noEndpoints });
    const prepared = await provider.prepare(
      claudeCall(false),
      upstream('Anthropic', serviceAccount()),
    );
    const body = JSON.parse(prepared.body.toString()) as Record<string, unknown>;
    const withModel = await send({
      ...prepared,
      body: Buffer.from(JSON.stringify({ ...body, model: 'm' })),
    });
    expect(withModel.status).toBe(400);
    expect(withModel.bytes.toString()).toContain('Extra inputs are not permitted');
  });
});
