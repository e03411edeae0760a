/**
 * Google OAuth access tokens for GoogleOAuth upstreams, through the real gateway and the fake's
 * token endpoint: one exchange for 50 concurrent requests, a refresh once the cached token is
 * within its margin of expiry, and a refused refresh token answered 502 TG_UPSTREAM_AUTH_FAILED.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN,
  REFRESH_TOKEN,
  startTranslatedEnv,
  upstreamCalls,
  type TranslatedEnv,
} from './translated-harness.js';

let env: TranslatedEnv | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function callMessages(current: TranslatedEnv) {
  const response = await request(`${current.base}/antigravity/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': current.keys.antigravity },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  return { status: response.statusCode, body: await response.body.json() };
}

describe('Google OAuth token refresh', () => {
  it('exchanges the refresh token once for 50 concurrent requests', async () => {
    env = await startTranslatedEnv();
    const current = env;
    const results = await Promise.all(Array.from({ length: 50 }, () => callMessages(current)));
    expect(results.map((result) => result.status)).toEqual(Array(50).fill(200));
    expect(current.fake.oauthCalls).toBe(1);
    const [exchange] = upstreamCalls(current, '/oauth2/token');
    expect(exchange?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(exchange?.body).toEqual({
      grant_type: 'refresh_token',
      refresh_token: REFRESH_TOKEN,
      client_id: 'tollgate-test-client',
      client_secret: 'test-client-secret',
    });
    const generations = upstreamCalls(current, '/v1internal:generateContent');
    expect(generations).toHaveLength(50);
    expect(
      generations.every((call) => call.headers.authorization === `Bearer ${ACCESS_TOKEN}`),
    ).toBe(true);
  });

  it('refreshes a token that is within 60 s of its expiry', async () => {
    env = await startTranslatedEnv({ oauth: { expiresInSeconds: 65 } });
    expect((await callMessages(env)).status).toBe(200);
    expect((await callMessages(env)).status).toBe(200);
    expect(env.fake.oauthCalls).toBe(1);
    env.advance(6_000);
    expect((await callMessages(env)).status).toBe(200);
    expect(env.fake.oauthCalls).toBe(2);
    expect((await callMessages(env)).status).toBe(200);
    expect(env.fake.oauthCalls).toBe(2);
  });

  it('answers 502 TG_UPSTREAM_AUTH_FAILED when the token endpoint refuses, and retries later', async () => {
    env = await startTranslatedEnv({ oauth: { refreshToken: 'another-refresh-token' } });
    const first = await callMessages(env);
    expect(first.status).toBe(502);
    expect(first.body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(JSON.stringify(first.body)).toContain('[TG_UPSTREAM_AUTH_FAILED]');
    expect(JSON.stringify(first.body)).not.toContain(REFRESH_TOKEN);
    expect(upstreamCalls(env, '/v1internal:generateContent')).toHaveLength(0);
    expect((await callMessages(env)).status).toBe(502);
    expect(env.fake.oauthCalls).toBe(2);
  });
});
