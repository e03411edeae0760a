/**
 * 200 uploads that trickle one byte every 100 ms (never silent long enough for the body idle
 * timeout, never finished) against a gateway with a 2 s request timeout: each is answered 408
 * `TG_REQUEST_TIMEOUT` in its protocol once the timeout has passed, and while they hold their
 * connections, calls from other clients through the official SDK are served in full, each one
 * answered before the first trickle is cut.
 */
import { connect } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { expect, it } from 'vitest';
import { env, key, useForwardingGateway } from './forwarding-setup.js';
import { parseRawResponse, type RawResponse } from './raw-http.js';

const TRICKLES = 200;
const REQUEST_TIMEOUT_MS = 2_000;
const DRIP_MS = 100;

useForwardingGateway({
  requestHeadersTimeoutMs: REQUEST_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  requestBodyIdleTimeoutMs: 1_000,
});

interface Trickled {
  response: RawResponse | null;
  /** Milliseconds from the first byte sent to the first byte answered. */
  answeredAfterMs: number | null;
  answeredAt: number | null;
}

/**
 * Sends a head announcing a 10,000-byte body, then one byte every `DRIP_MS` until the gateway
 * answers or closes; gives up (response null) after `giveUpMs`.
 */
async function trickle(options: { port: number; head: string; giveUpMs: number }) {
  const socket = connect(options.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = Date.now();
  const result: Trickled = { response: null, answeredAfterMs: null, answeredAt: null };
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => {
    result.answeredAt ??= Date.now();
    result.answeredAfterMs ??= Date.now() - started;
    chunks.push(chunk);
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      resolve();
    });
  });
  socket.write(options.head);
  const drip = setInterval(() => {
    if (result.answeredAt === null && !socket.destroyed) socket.write('{');
  }, DRIP_MS);
  const giveUp = setTimeout(() => {
    socket.destroy();
  }, options.giveUpMs);
  await closed;
  clearInterval(drip);
  clearTimeout(giveUp);
  result.response = parseRawResponse(Buffer.concat(chunks));
  return result;
}

it('answers 200 trickling uploads 408 at the request timeout while serving other clients', async () => {
  const port = Number(new URL(env.base).port);
  const anthropicKey = await key({ platform: 'Anthropic' });
  const openaiKey = await key({ platform: 'OpenAI' });
  const heads = [
    `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${anthropicKey}\r\n`,
    `POST /v1/responses HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${openaiKey}\r\n`,
  ].map((start) => `${start}content-type: application/json\r\ncontent-length: 10000\r\n\r\n`);

  const trickles = Promise.all(
    Array.from({ length: TRICKLES }, (_unused, index) =>
      trickle({ port, head: heads[index % 2]!, giveUpMs: 4 * REQUEST_TIMEOUT_MS }),
    ),
  );
  // While the trickles hold 200 connections, another client calls in a loop through its SDK.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const client = new Anthropic({ apiKey: anthropicKey, baseURL: env.base, maxRetries: 0 });
  const served: number[] = [];
  for (let call = 0; call < 10; call++) {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'not held up by the trickles' }],
    });
    expect(message.type).toBe('message');
    served.push(Date.now());
  }

  const results = await trickles;
  const unanswered = results.filter((result) => result.response === null).length;
  expect(unanswered).toBe(0);
  const statuses = results.map((result) => result.response?.status);
  expect(new Set(statuses)).toEqual(new Set([408]));
  results.forEach((result, index) => {
    const body = JSON.parse(result.response?.body ?? '') as unknown;
    expect(body).toMatchObject(
      index % 2 === 0
        ? { type: 'error', error: { type: 'timeout_error' } }
        : { error: { code: 'TG_REQUEST_TIMEOUT' } },
    );
    // Cut at the request timeout, not before it (the body idle timeout never fired).
    expect(result.answeredAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  });
  // No trickled body reached the upstream; every other call did, before the first trickle was cut.
  expect(env.fake.requests).toHaveLength(10);
  const firstCut = Math.min(...results.map((result) => result.answeredAt ?? Infinity));
  expect(Math.max(...served)).toBeLessThan(firstCut);
}, 30_000);
