/**
 * Vertex AI on the fake provider over real HTTP: the token it issues (JWT bearer grant, GKE
 * metadata server) opens its Vertex paths, other tokens get Google's 401; Claude and Gemini answer
 * on their Vertex paths; bodies Vertex refuses are refused.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from './start-fake-provider.js';

let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider({ keepRequests: 10 });
});
afterAll(async () => {
  await fake.close();
});

const base = '/v1/projects/demo/locations/us-east5/publishers';

async function call(
  path: string,
  options: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
) {
  const response = await request(`${fake.url}${path}`, {
    method: options.method ?? 'POST',
    headers: options.headers,
    body: options.body ?? null,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

async function token(): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: 'header.claims.signature',
  });
  const granted = await call('/oauth2/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  expect(granted.status).toBe(200);
  return (JSON.parse(granted.text) as { access_token: string }).access_token;
}

const claude = (extra: Record<string, unknown>): string =>
  JSON.stringify({
    anthropic_version: 'vertex-2023-10-16',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  });

describe('Vertex AI on the fake provider', () => {
  it('issues tokens for the JWT bearer grant and from the metadata path', async () => {
    const metadataPath = '/computeMetadata/v1/instance/service-accounts/default/token';
    const refused = await call(metadataPath, { method: 'GET', headers: {} });
    expect(refused.status).toBe(400);
    const granted = await call(metadataPath, {
      method: 'GET',
      headers: { 'metadata-flavor': 'Google' },
    });
    expect(JSON.parse(granted.text)).toMatchObject({ access_token: await token() });
  });

  it('answers Claude on rawPredict and streamRawPredict (with vertex_event)', async () => {
    const headers = {
      authorization: `Bearer ${await token()}`,
      'content-type': 'application/json',
    };
    const plain = await call(`${base}/anthropic/models/claude-haiku-4-5:rawPredict`, {
      headers,
      body: claude({}),
    });
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.text)).toMatchObject({ type: 'message', model: 'claude-haiku-4-5' });
    const streamed = await call(`${base}/anthropic/models/claude-haiku-4-5:streamRawPredict`, {
      headers,
      body: claude({ stream: true }),
    });
    expect(streamed.text).toMatch(/event: vertex_event\n[^]*event: message_stop\n/);
    const counted = await call(`${base}/anthropic/models/count-tokens:rawPredict`, {
      headers,
      body: claude({ model: 'claude-haiku-4-5' }),
    });
    expect(JSON.parse(counted.text)).toMatchObject({ input_tokens: expect.any(Number) as number });
  });

  it('answers Gemini on generateContent, streamGenerateContent and countTokens', async () => {
    const headers = {
      authorization: `Bearer ${await token()}`,
      'content-type': 'application/json',
    };
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const models = `${base}/google/models/gemini-2.5-flash`;
    expect((await call(`${models}:generateContent`, { headers, body })).text).toContain(
      'usageMetadata',
    );
    const streamed = await call(`${models}:streamGenerateContent?alt=sse`, { headers, body });
    expect(streamed.text.startsWith('data: ')).toBe(true);
    expect((await call(`${models}:countTokens`, { headers, body })).text).toContain('totalTokens');
  });

  it('refuses other tokens and the bodies Vertex refuses', async () => {
    const path = `${base}/anthropic/models/claude-haiku-4-5:rawPredict`;
    const stranger = await call(path, {
      headers: { authorization: 'Bearer other' },
      body: claude({}),
    });
    expect(stranger.status).toBe(401);
    expect(JSON.parse(stranger.text)).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    const headers = {
      authorization: `Bearer ${await token()}`,
      'content-type': 'application/json',
    };
    const cases: [string, string][] = [
      [claude({ model: 'claude-haiku-4-5' }), 'Extra inputs are not permitted'],
      [claude({ anthropic_version: 'bedrock-2023-05-31' }), 'anthropic_version'],
      [claude({ stream: true }), 'does not go with :rawPredict'],
    ];
    for (const [body, message] of cases) {
      const refused = await call(path, { headers, body });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(message);
    }
  });
});
