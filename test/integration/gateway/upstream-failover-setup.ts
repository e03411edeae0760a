/**
 * Shared setup of the upstream pool suites: two fake providers (real HTTP servers) as the healthy
 * upstreams, tiny node:http servers for the faults the fake does not produce, a closed port for a
 * refused connection, and helpers that write upstreams with fresh names (so no test sees another's
 * cool-down), keys, and read the settled usage records.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UpstreamRef } from '../../../store/policy-documents.js';
import type { Platform, Store } from '../../../store/store.js';
import type { SettledRecord } from '../../../store/usage-records.js';
import {
  createKey,
  putApiKeyUpstream,
  type KeyOptions,
  type Secrets,
} from '../../support/gateway-fixture.js';

export async function putUpstream(
  store: Store,
  secrets: Secrets,
  options: {
    prefix: string;
    platform?: Platform;
    baseURL: string;
    maxConcurrent?: number;
    requestsPerMinute?: number;
  },
): Promise<string> {
  const name = `${options.prefix}-${randomUUID().slice(0, 8)}`;
  await putApiKeyUpstream(store, secrets, {
    name,
    platform: options.platform ?? 'Anthropic',
    baseURL: options.baseURL,
    ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
    ...(options.requestsPerMinute === undefined
      ? {}
      : { requestsPerMinute: options.requestsPerMinute }),
  });
  return name;
}

/** Upstream refs in the order given: each one priority lower than the previous one. */
export function inOrder(...names: string[]): UpstreamRef[] {
  return names.map((name, index) => ({ name, weight: 1, priority: index }));
}

export async function poolKey(
  store: Store,
  secrets: Secrets,
  options: Partial<KeyOptions> & { namespace: string; upstreams: UpstreamRef[] },
): Promise<string> {
  const created = await createKey(store, secrets, { platform: 'Anthropic', ...options });
  return created.value;
}

export class TinyServers {
  readonly #servers: Server[] = [];

  async start(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    this.#servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** The address of a port that was listening and is closed now: connections are refused. */
  async refused(): Promise<string> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    for (const server of this.#servers) server.closeAllConnections();
    await Promise.all(
      this.#servers.map((server) => new Promise((resolve) => server.close(resolve))),
    );
  }
}

/** An Anthropic-shaped error answer with the given headers. */
export function anthropicError(status: number, headers: Record<string, string> = {}) {
  return (_request: unknown, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(
      JSON.stringify({
        type: 'error',
        error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message: 'tiny' },
      }),
    );
  };
}

/** Waits for the settled record of a request id (the settlement runs when the response closes). */
export async function settledRecord(
  store: Store,
  namespace: string,
  requestId: string,
): Promise<SettledRecord> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const records = await store.pendingUsageRecords(namespace, 10_000);
    const found = records.find((record) => record.requestId === requestId);
    if (found !== undefined) return found;
    await sleep(10);
  }
  throw new Error(`no usage record for ${requestId}`);
}

export const messageBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  });

/** A Claude Code style body: `metadata.user_id` carries the session. */
export const sessionBody = (session: string) =>
  messageBody({
    metadata: {
      user_id: JSON.stringify({ device_id: 'dev', account_uuid: '', session_id: session }),
    },
  });
