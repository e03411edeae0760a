/**
 * The settlement tests' call: a streamed Anthropic Messages call to a gateway listening on a port,
 * returned once its headers arrived (admitted and streaming), its body still coming.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { expect } from 'vitest';

export function gatewayAddress(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

/** The value of an unlabelled metric (or one written with its labels) in the gateway's registry. */
export async function metricValue(app: FastifyInstance, line: string): Promise<number> {
  const text = await app.gateway.registry.metrics();
  const found = text.split('\n').find((entry) => entry.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}

export async function startStreamedMessage(
  base: string,
  apiKey: string,
): Promise<{ body: Promise<string> }> {
  const response = await request(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Tell me a story' }],
    }),
  });
  expect(response.statusCode).toBe(200);
  // Wrapped: an async function returning a bare promise would wait for the whole body.
  return { body: response.body.text() };
}
