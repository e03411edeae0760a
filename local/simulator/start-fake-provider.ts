/**
 * The fake model provider: a real node:http server on 127.0.0.1 speaking the wire formats of all
 * four platforms (see `route-fake-request.ts`). It checks the credential each platform expects
 * and follows a configurable behaviour (delays, drops, errors, usage).
 *
 * It keeps no request it answered unless asked to (`keepRequests`, for tests that inspect what the
 * gateway sent): `tollgate local` runs it inside the gateway's process, where a log of every call
 * (1 MB prompts included) would be the gateway's memory, growing with traffic.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerOAuthToken, type FakeOAuthSettings } from './answer-antigravity.js';
import { attachResponsesWebsocket } from './answer-responses-websocket.js';
import {
  createBehaviourRegistry,
  type FakeBehaviour,
  type RecordedRequest,
} from './fake-behaviour.js';
import type { FakeCall } from './fake-call.js';
import { platformStatus, renderFakeError, type FakePlatform } from './render-fake-error.js';
import { createParsePacer } from '../../gateway/stages/admit/pace-large-parses.js';
import { createRequestLog } from './keep-fake-requests.js';
import type { FakeRoutePlatform } from './fake-route.js';
import { routeFakeRequest } from './route-fake-request.js';
import { refuseBedrockCall } from './answer-aws-bedrock.js';
import { sendJson } from './write-fake-response.js';

export interface FakeProviderOptions {
  port?: number;
  host?: string;
  /** The upstream key every platform expects; null accepts any caller. Default `fake-upstream-key`. */
  credential?: string | null;
  oauth?: Partial<FakeOAuthSettings>;
  /** How many of the latest requests `requests` holds; default 0: none kept (`requests` throws). */
  keepRequests?: number;
  /**
   * Whether a Vertex AI call's bearer token is accepted; default: the token the fake's own token
   * endpoint issues (`oauth.accessToken`).
   */
  acceptsVertexToken?: (token: string) => boolean;
  /** Serves Responses over WebSocket (default); false: an upgrade is answered as plain HTTP. */
  websocket?: boolean;
}

export interface FakeProvider {
  url: string;
  port: number;
  /** The latest `keepRequests` requests, oldest first; throws when the provider keeps none. */
  readonly requests: readonly RecordedRequest[];
  /** Responses WebSocket connections open now. */
  readonly openWebsockets: number;
  /** Calls to the OAuth token endpoint. */
  readonly oauthCalls: number;
  /** Sets the global behaviour, or the behaviour of one path (e.g. `/v1/messages`). */
  setBehaviour(behaviour: FakeBehaviour, path?: string): void;
  /** Forgets recorded requests, OAuth calls and behaviours. */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_CREDENTIAL = 'fake-upstream-key';

function errorShape(platform: FakeRoutePlatform): FakePlatform {
  if (platform === 'anthropic' || platform === 'openai') return platform;
  return 'google';
}

function isAuthorised(options: {
  platform: FakeRoutePlatform;
  request: RecordedRequest;
  credential: string | null;
  accessToken: string;
  acceptsVertexToken: (token: string) => boolean;
}): boolean {
  const { headers, query } = options.request;
  if (options.platform === 'oauth') return true;
  const bearer = headers.authorization?.replace(/^Bearer\s+/i, '');
  if (options.platform === 'antigravity') return bearer === options.accessToken;
  if (options.platform === 'vertex') {
    return bearer !== undefined && bearer !== '' && options.acceptsVertexToken(bearer);
  }
  const expected = options.credential;
  if (expected === null) return true;
  if (bearer === expected) return true;
  if (options.platform === 'anthropic') return headers['x-api-key'] === expected;
  if (options.platform === 'google') {
    return headers['x-goog-api-key'] === expected || query.key === expected;
  }
  return false;
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw === '') return null;
  if (contentType?.includes('application/x-www-form-urlencoded') === true) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

async function readRequest(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function recordRequest(request: IncomingMessage, url: URL, body: Buffer): RecordedRequest {
  const raw = body.toString('utf8');
  return {
    method: request.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: request.headers,
    body: parseBody(raw, request.headers['content-type']),
    rawBody: raw,
  };
}

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const credential =
    options.credential === undefined ? DEFAULT_FAKE_CREDENTIAL : options.credential;
  const oauth: FakeOAuthSettings = {
    refreshToken:
      options.oauth?.refreshToken === undefined ? 'fake-refresh-token' : options.oauth.refreshToken,
    accessToken: options.oauth?.accessToken ?? 'fake-access-token',
    expiresInSeconds: options.oauth?.expiresInSeconds ?? 3600,
  };
  const acceptsVertexToken =
    options.acceptsVertexToken ?? ((token: string) => token === oauth.accessToken);
  const behaviours = createBehaviourRegistry();
  const log = createRequestLog(options.keepRequests ?? 0);
  const pacer = createParsePacer();
  const closing = new AbortController();
  let oauthCalls = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://fake.invalid');
    const body = await readRequest(request);
    const bytes = body.length;
    // In local mode the simulator shares the gateway's event loop: large bodies wait their turn.
    const read = pacer.run(bytes, () => recordRequest(request, url, body));
    const recorded = read instanceof Promise ? await read : read;
    log.add(recorded);
    const gone = new AbortController();
    response.on('close', () => {
      gone.abort();
    });
    const signal = AbortSignal.any([gone.signal, closing.signal]);
    const behaviour = behaviours.resolve(recorded.path);
    const call: FakeCall = {
      request: recorded,
      behaviour,
      bodyBytes: bytes,
      write: { response, behaviour, signal },
    };
    const route = routeFakeRequest(recorded);
    if (route === null) {
      await sendJson(call.write, { status: 404, body: renderFakeError('openai', 404) });
      return;
    }
    if (route.platform === 'oauth') {
      oauthCalls += 1;
      await answerOAuthToken({ ...call, write: { ...call.write, behaviour: {} } }, oauth);
      return;
    }
    if (route.platform === 'bedrock') {
      if (!(await refuseBedrockCall(call))) await route.answer(call);
      return;
    }
    const shape = errorShape(route.platform);
    const accessToken = oauth.accessToken;
    const authorised = isAuthorised({
      platform: route.platform,
      request: recorded,
      credential,
      accessToken,
      acceptsVertexToken,
    });
    if (!authorised) {
      await sendJson(call.write, { status: 401, body: renderFakeError(shape, 401) });
      return;
    }
    if (behaviour.status !== undefined) {
      const status = platformStatus(shape, behaviour.status);
      const headers: Record<string, string> =
        status === 429 ? { 'retry-after': String(behaviour.retryAfterSeconds ?? 7) } : {};
      await sendJson(call.write, { status, body: renderFakeError(shape, status), headers });
      return;
    }
    await route.answer(call);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A fault of the fake itself is a 500 that says so, not a connection that looks cut.
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const message = `the fake provider failed: ${error instanceof Error ? error.message : String(error)}`;
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'fake_provider_error', message } }));
    });
  });
  server.keepAliveTimeout = 1000;
  const websockets =
    options.websocket === false
      ? { close: () => undefined, open: 0 }
      : attachResponsesWebsocket(server, {
          credential,
          behaviours,
          record: (recorded) => {
            log.add(recorded);
          },
          signal: closing.signal,
        });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    get openWebsockets() {
      return websockets.open;
    },
    get requests() {
      return log.read();
    },
    get oauthCalls() {
      return oauthCalls;
    },
    setBehaviour: (behaviour, path) => {
      behaviours.set(behaviour, path);
    },
    reset() {
      log.clear();
      oauthCalls = 0;
      behaviours.reset();
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        websockets.close();
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
