/**
 * Shared setup of the stream-timeout suite: a stalling upstream (a real node:http server that
 * answers 200 with a streaming content type and then sends nothing, or only keep-alive comments),
 * an OAuth upstream for Antigravity, and one streamed call per client protocol with the checker of
 * its error body and of its in-stream error event.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect } from 'vitest';
import type { Platform, Store } from '../../../store/store.js';
import { sealCredential } from '../../../store/seal-credential.js';
import { putApiKeyUpstream, type Secrets } from '../../support/gateway-fixture.js';
import type { TinyServers } from './upstream-failover-setup.js';

export interface StallingUpstream {
  url: string;
  /** Calls received (token requests not counted). */
  calls: number;
  /** Calls whose connection the gateway closed. */
  closed: number;
}

/** 200 and streaming headers, then silence (or a keep-alive comment every `keepAliveMs`). */
export async function startStallingUpstream(
  tiny: TinyServers,
  options: { keepAliveMs?: number } = {},
): Promise<StallingUpstream> {
  const upstream: StallingUpstream = { url: '', calls: 0, closed: 0 };
  upstream.url = await tiny.start((request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith('/oauth2/token') === true) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: 'stall-token', expires_in: 3600 }));
      return;
    }
    upstream.calls += 1;
    const sse = request.url?.includes('alt=sse') === true || !request.url?.includes('Generate');
    response.writeHead(200, {
      'content-type': sse ? 'text/event-stream' : 'application/json',
    });
    response.flushHeaders();
    const timer =
      options.keepAliveMs === undefined
        ? null
        : setInterval(() => response.write(': keep-alive\n\n'), options.keepAliveMs);
    response.once('close', () => {
      if (timer !== null) clearInterval(timer);
      upstream.closed += 1;
    });
  });
  return upstream;
}

/** An upstream of the platform at `baseURL`; Antigravity's takes its token from `baseURL` too. */
export async function putPlatformUpstream(
  store: Store,
  secrets: Secrets,
  options: { prefix: string; platform: Platform; baseURL: string },
): Promise<string> {
  const name = `${options.prefix}-${randomUUID().slice(0, 8)}`;
  if (options.platform !== 'Antigravity') {
    await putApiKeyUpstream(store, secrets, { name, ...options });
    return name;
  }
  await store.putUpstream({
    digest: randomUUID(),
    name,
    platform: 'Antigravity',
    baseURL: options.baseURL,
    sealedCredential: sealCredential(
      secrets.credentialKey,
      JSON.stringify({ refreshToken: 'fake-refresh-token', clientSecret: 'fake-client-secret' }),
    ),
    credentialType: 'GoogleOAuth',
    oauth: {
      clientID: 'fake-client-id',
      tokenURL: `${options.baseURL}/oauth2/token`,
      projectID: 'fake-project',
    },
    maxConcurrent: 0,
    modelOverrides: {},
    chatCompletions: 'Translate',
  });
  return name;
}

export interface StreamedCall {
  name: string;
  platform: Platform;
  path: string;
  headers: (apiKey: string) => Record<string, string>;
  body: string;
  /** The protocol's error body for a gateway timeout `code`. */
  expectedError: (code: string) => unknown;
  /** The data of the protocol's in-stream error event; null: the stream is only closed. */
  expectedEvent: ((code: string) => unknown) | null;
}

const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });
const googleKey = (apiKey: string) => ({ 'x-goog-api-key': apiKey });
const messages = (model: string) =>
  JSON.stringify({
    model,
    max_tokens: 16,
    stream: true,
    messages: [{ role: 'user', content: 'hi' }],
  });
const gemini = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
/** vitest's asymmetric matchers, typed as what they stand for. */
const containing = (text: string): unknown => expect.stringContaining(text) as unknown;
const anyText = (): unknown => expect.any(String) as unknown;
const anthropicError = (code: string) => ({
  type: 'error',
  error: { type: 'timeout_error', message: containing(code) },
});
const openAIError = (code: string) => ({ error: { type: 'server_error', code } });
const responsesEvent = (code: string) => ({ type: 'error', code, message: anyText() });
const googleError = (code: string) => ({
  error: { code: 504, status: 'DEADLINE_EXCEEDED', message: containing(code) },
});

/** One streamed call per client protocol and platform. */
export const STREAMED_CALLS: StreamedCall[] = [
  {
    name: 'Anthropic Messages',
    platform: 'Anthropic',
    path: '/v1/messages',
    headers: (apiKey) => ({ 'x-api-key': apiKey }),
    body: messages('claude-sonnet-4-6'),
    expectedError: anthropicError,
    expectedEvent: anthropicError,
  },
  {
    name: 'OpenAI Responses',
    platform: 'OpenAI',
    path: '/v1/responses',
    headers: bearer,
    body: JSON.stringify({ model: 'gpt-5', input: 'hi', stream: true }),
    expectedError: openAIError,
    expectedEvent: responsesEvent,
  },
  {
    name: 'Chat Completions',
    platform: 'OpenAI',
    path: '/v1/chat/completions',
    headers: bearer,
    body: JSON.stringify({
      model: 'gpt-5',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    }),
    expectedError: openAIError,
    expectedEvent: openAIError,
  },
  {
    name: 'Gemini (SSE)',
    platform: 'Gemini',
    path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    headers: googleKey,
    body: gemini,
    expectedError: googleError,
    expectedEvent: googleError,
  },
  {
    name: 'Gemini (JSON array)',
    platform: 'Gemini',
    path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
    headers: googleKey,
    body: gemini,
    expectedError: googleError,
    expectedEvent: null,
  },
  {
    name: 'Antigravity Messages',
    platform: 'Antigravity',
    path: '/antigravity/v1/messages',
    headers: bearer,
    body: messages('claude-opus-4-6-thinking'),
    expectedError: anthropicError,
    expectedEvent: anthropicError,
  },
  {
    name: 'Antigravity Gemini',
    platform: 'Antigravity',
    path: '/antigravity/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    headers: googleKey,
    body: gemini,
    expectedError: googleError,
    expectedEvent: googleError,
  },
];
