/**
 * A client that goes away aborts the upstream request under way, for a stream (after its first
 * bytes) and for a whole reply still being read: the upstream sees its connection closed long
 * before it would have finished, so no provider keeps generating for nobody.
 */
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  newSecrets,
  openStore,
  writeAccount,
} from '../../support/gateway-fixture.js';
import {
  inOrder,
  messageBody,
  poolKey,
  putUpstream,
  TinyServers,
} from './upstream-failover-setup.js';

const secrets = newSecrets();
const namespace = 'team-abort';
const tiny = new TinyServers();
let store: Store;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  store = await openStore('memory', '');
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await tiny.close();
  await store.close();
});

/** An upstream that sends its first bytes, then one more piece every 200 ms for 10 s. */
async function slowUpstream(contentType: string) {
  let closedAt: number | null = null;
  let finished = false;
  const url = await tiny.start((_request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    response.write(contentType === 'text/event-stream' ? 'event: ping\ndata: {}\n\n' : '{"id":');
    const timer = setInterval(() => response.write(' '), 200);
    const end = setTimeout(() => {
      finished = true;
      clearInterval(timer);
      response.end();
    }, 10_000);
    response.on('close', () => {
      closedAt = Date.now();
      clearInterval(timer);
      clearTimeout(end);
    });
  });
  return { url, closedAt: () => closedAt, finished: () => finished };
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

describe('a client that goes away', () => {
  for (const [label, contentType, stream] of [
    ['a stream', 'text/event-stream', true],
    ['a whole reply', 'application/json', false],
  ] as const) {
    it(`closes the upstream connection of ${label} under way`, async () => {
      const upstream = await slowUpstream(contentType);
      const name = await putUpstream(store, secrets, { prefix: 'slow', baseURL: upstream.url });
      const apiKey = await poolKey(store, secrets, { namespace, upstreams: inOrder(name) });
      const abort = new AbortController();
      const answer = request(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: messageBody({ stream }),
        signal: abort.signal,
      });
      if (stream) {
        const response = await answer;
        await new Promise((resolve) => response.body.once('data', resolve));
      } else {
        // The gateway holds a whole reply until its end: leave while it is being read.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const leftAt = Date.now();
      abort.abort();
      await answer.then(
        (response) => response.body.text().catch(() => ''),
        () => '',
      );
      expect(await waitFor(() => upstream.closedAt() !== null, 3_000)).toBe(true);
      expect(upstream.finished()).toBe(false);
      expect((upstream.closedAt() ?? Infinity) - leftAt).toBeLessThan(3_000);
    });
  }
});
