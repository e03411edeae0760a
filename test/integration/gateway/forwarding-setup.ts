/**
 * Shared setup of the forwarding suites: a memory store, two fake providers, the gateway on a
 * real port, and helpers that write upstreams and keys and call the gateway.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { AppConfig } from '../../../gateway/gateway-config.js';
import type { UpstreamRef } from '../../../store/policy-documents.js';
import type { Platform, Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  putApiKeyUpstream,
  writeAccount,
  writeUpstreams,
  type KeyOptions,
} from '../../support/gateway-fixture.js';

export interface ForwardingEnvironment {
  store: Store;
  fake: FakeProvider;
  spare: FakeProvider;
  app: FastifyInstance;
  base: string;
}

/** Filled in by `useForwardingGateway()` before the tests run. */
export const env = {} as ForwardingEnvironment;
export const registry = new Registry();
export const secrets = newSecrets();
export const namespace = 'team-forward';
const servers: Server[] = [];

export async function putUpstream(options: {
  name: string;
  platform: Platform;
  baseURL: string;
  maxConcurrent?: number;
  modelOverrides?: Record<string, string>;
}): Promise<void> {
  await putApiKeyUpstream(env.store, secrets, options);
}

export async function key(
  options: Partial<KeyOptions> & { upstreams?: UpstreamRef[] } = {},
): Promise<string> {
  const created = await createKey(env.store, secrets, {
    platform: 'Anthropic',
    namespace,
    ...options,
  });
  return created.value;
}

export async function tinyUpstream(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export const message = (model = 'claude-sonnet-4-6', stream = false) =>
  JSON.stringify({ model, max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] });

/** A whole Messages reply, as an upstream of the tests' own (`tinyUpstream`) answers. */
export function messagesReply(
  text: string,
  usage: { input_tokens: number; output_tokens: number },
) {
  return JSON.stringify({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  });
}

export async function callMessages(
  apiKey: string,
  body: string,
  headers: Record<string, string> = {},
) {
  return request(`${env.base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...headers },
    body,
  });
}

/** Registers the suite's setup and teardown hooks; `config` overrides the gateway's settings. */
export function useForwardingGateway(config: Partial<AppConfig> = {}): void {
  beforeAll(async () => {
    env.store = await openStore('memory', '');
    env.fake = await startFakeProvider({ keepRequests: 1_000 });
    env.spare = await startFakeProvider({ keepRequests: 1_000 });
    await writeUpstreams(env.store, { secrets, baseURL: env.fake.url });
    await writeAccount(env.store, namespace);
    env.app = buildGateway(env.store, secrets, { registry, config });
    env.base = await env.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await env.app.close();
    await Promise.all([env.fake.close(), env.spare.close()]);
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await env.store.close();
  });

  beforeEach(() => {
    env.fake.reset();
    env.spare.reset();
  });
}

/** The servers started by `tinyUpstream`, so a test can stop one. */
export function tinyServers(): readonly Server[] {
  return servers;
}
