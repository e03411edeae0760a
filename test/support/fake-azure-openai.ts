/**
 * Test support: a fake Azure OpenAI resource and a fake Microsoft Entra ID, real HTTP servers.
 *
 * The resource serves Azure's routes (the v1 API `/openai/v1/...`; deployment paths
 * `/openai/deployments/<deployment>/chat/completions` and `/openai/responses`, both requiring
 * `api-version`), checks the credential as Azure does (the `api-key` header, or a bearer token the
 * fake Entra ID issued and has not expired), answers 401 / 404 / 429 in Azure's error shape, and
 * passes an accepted call to the fake provider (`local/simulator/`), which answers in OpenAI's wire
 * format, streamed or not. The Entra ID endpoint `/<tenant>/oauth2/v2.0/token` checks the client
 * credentials grant (tenant, client id, secret, scope) and issues numbered tokens.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startFakeProvider, type FakeProvider } from '../../local/simulator/start-fake-provider.js';

export interface AzureCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface FakeEntraOptions {
  tenantID: string;
  clientID: string;
  clientSecret: string;
  expiresInSeconds?: number;
}

export interface FakeAzureOpenAI {
  /** The resource endpoint, e.g. http://127.0.0.1:PORT. */
  url: string;
  /** The Entra ID authority (AZURE_AUTHORITY_HOST). */
  authority: string;
  readonly calls: readonly AzureCall[];
  /** Token requests the Entra ID endpoint answered with a token. */
  readonly tokensIssued: number;
  /** Answers the next `count` model calls with 429 and `retry-after`. */
  throttle(count: number, retryAfterSeconds: number): void;
  /** Makes every token issued so far invalid (as after a revocation). */
  revokeTokens(): void;
  close(): Promise<void>;
}

const SCOPE = 'https://cognitiveservices.azure.com/.default';

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function azureError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { code: String(status), message } }));
}

/** The first-party path an Azure route serves, or null when Azure has no such route. */
function firstPartyPath(path: string, query: URLSearchParams): string | null {
  if (path.startsWith('/openai/v1/')) return path.slice('/openai'.length);
  if (query.get('api-version') === null) return null;
  if (/^\/openai\/deployments\/[^/]+\/chat\/completions$/.test(path)) {
    return '/v1/chat/completions';
  }
  if (path === '/openai/responses') return '/v1/responses';
  return null;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

export async function startFakeAzureOpenAI(options: {
  apiKey: string;
  entra: FakeEntraOptions;
}): Promise<FakeAzureOpenAI> {
  const provider: FakeProvider = await startFakeProvider({ credential: null });
  const calls: AzureCall[] = [];
  const tokens = new Map<string, number>();
  let issued = 0;
  let throttled = { count: 0, retryAfterSeconds: 0 };

  const entra = createServer((incoming, response) => {
    void (async () => {
      const form = new URLSearchParams(await readBody(incoming));
      const { entra: expected } = options;
      const valid =
        incoming.url === `/${expected.tenantID}/oauth2/v2.0/token` &&
        form.get('grant_type') === 'client_credentials' &&
        form.get('client_id') === expected.clientID &&
        form.get('client_secret') === expected.clientSecret &&
        form.get('scope') === SCOPE;
      if (!valid) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'invalid_client' }));
        return;
      }
      issued += 1;
      const token = `entra-token-${String(issued)}`;
      const lifetime = expected.expiresInSeconds ?? 3600;
      tokens.set(token, Date.now() + lifetime * 1000);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ token_type: 'Bearer', expires_in: lifetime, access_token: token }),
      );
    })();
  });

  const authorised = (headers: IncomingMessage['headers']): boolean => {
    if (headers['api-key'] === options.apiKey) return true;
    const bearer = headers.authorization?.replace(/^Bearer\s+/i, '');
    const until = bearer === undefined ? undefined : tokens.get(bearer);
    return until !== undefined && Date.now() < until;
  };

  const resource = createServer((incoming, response) => {
    void (async () => {
      const url = new URL(incoming.url ?? '/', 'http://azure.invalid');
      const raw = await readBody(incoming);
      let body: unknown = null;
      try {
        body = raw === '' ? null : JSON.parse(raw);
      } catch {
        body = raw;
      }
      calls.push({
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: incoming.headers,
        body,
      });
      if (!authorised(incoming.headers)) {
        azureError(response, 401, 'Access denied due to invalid subscription key or token.');
        return;
      }
      const target = firstPartyPath(url.pathname, url.searchParams);
      if (target === null) {
        azureError(response, 404, 'Resource not found');
        return;
      }
      if (throttled.count > 0) {
        throttled = { ...throttled, count: throttled.count - 1 };
        response.setHeader('retry-after', String(throttled.retryAfterSeconds));
        azureError(response, 429, 'Requests have exceeded the token rate limit of your tier.');
        return;
      }
      const answer = await request(`${provider.url}${target}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      response.writeHead(answer.statusCode, {
        'content-type': String(answer.headers['content-type'] ?? 'application/json'),
      });
      for await (const chunk of answer.body) response.write(chunk as Buffer);
      response.end();
    })();
  });

  const [url, authority] = await Promise.all([listen(resource), listen(entra)]);
  return {
    url,
    authority,
    calls,
    get tokensIssued() {
      return issued;
    },
    throttle(count, retryAfterSeconds) {
      throttled = { count, retryAfterSeconds };
    },
    revokeTokens() {
      tokens.clear();
    },
    async close() {
      for (const server of [resource, entra]) server.closeAllConnections();
      await Promise.all(
        [resource, entra].map((server) => new Promise((resolve) => server.close(resolve))),
      );
      await provider.close();
    },
  };
}
