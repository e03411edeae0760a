/**
 * 1,000 fuzzed request bodies (a seeded fuzzer, so every run sends the same ones) on the four
 * routes clients use most, each with a valid key, against the real gateway and the fake provider:
 * no answer is a 5xx, none hangs, and every answer has the shape of the route's protocol (an error
 * body its SDK can read, or the protocol's reply).
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../store/store.js';
import { env, key, useForwardingGateway } from './forwarding-setup.js';
import { fuzzBodies, type FuzzedBody } from './fuzz-request-bodies.js';

useForwardingGateway();

const SEED = 27;
const PER_ROUTE = 250;
const CONCURRENCY = 16;

type Shape = 'anthropic' | 'openai' | 'google';

interface FuzzRoute {
  path: string;
  platform: Platform;
  header: (key: string) => Record<string, string>;
  shape: Shape;
  valid: object;
  /** What a successful non-streamed reply carries. */
  reply: (body: Record<string, unknown>) => boolean;
}

const routes: FuzzRoute[] = [
  {
    path: '/v1/messages',
    platform: 'Anthropic',
    header: (key) => ({ 'x-api-key': key }),
    shape: 'anthropic',
    valid: {
      model: 'claude-sonnet-4-6',
      max_tokens: 16,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'fuzz' }] }],
      system: 'be brief',
    },
    reply: (body) => body.type === 'message',
  },
  {
    path: '/v1/responses',
    platform: 'OpenAI',
    header: (key) => ({ authorization: `Bearer ${key}` }),
    shape: 'openai',
    valid: {
      model: 'gpt-5',
      max_output_tokens: 16,
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'fuzz' }] }],
    },
    reply: (body) => body.object === 'response',
  },
  {
    path: '/v1/chat/completions',
    platform: 'OpenAI',
    header: (key) => ({ authorization: `Bearer ${key}` }),
    shape: 'openai',
    valid: {
      model: 'gpt-5',
      max_completion_tokens: 16,
      n: 1,
      messages: [{ role: 'user', content: 'fuzz' }],
    },
    reply: (body) => body.object === 'chat.completion',
  },
  {
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    platform: 'Gemini',
    header: (key) => ({ 'x-goog-api-key': key }),
    shape: 'google',
    valid: {
      contents: [{ role: 'user', parts: [{ text: 'fuzz' }] }],
      generationConfig: { maxOutputTokens: 16, candidateCount: 1 },
    },
    reply: (body) => Array.isArray(body.candidates),
  },
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether an error body is one the route's SDK reads: the protocol's own error envelope. */
function isShapedError(shape: Shape, body: unknown): boolean {
  if (!isRecord(body) || !isRecord(body.error)) return false;
  const error = body.error;
  if (shape === 'anthropic') {
    return (
      body.type === 'error' && typeof error.type === 'string' && typeof error.message === 'string'
    );
  }
  if (shape === 'openai')
    return typeof error.type === 'string' && typeof error.message === 'string';
  return (
    typeof error.code === 'number' &&
    typeof error.message === 'string' &&
    typeof error.status === 'string'
  );
}

interface Outcome {
  status: number;
  problem: string | null;
}

async function send(route: FuzzRoute, apiKey: string, fuzzed: FuzzedBody): Promise<Outcome> {
  const response = await request(`${env.base}${route.path}`, {
    method: 'POST',
    headers: {
      ...route.header(apiKey),
      ...(fuzzed.contentType === null ? {} : { 'content-type': fuzzed.contentType }),
    },
    body: fuzzed.body,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await response.body.text();
  const status = response.statusCode;
  if (status >= 500) return { status, problem: `answered ${status}: ${text.slice(0, 300)}` };
  const contentType = String(response.headers['content-type'] ?? '');
  if (status === 200 && contentType.startsWith('text/event-stream')) {
    return { status, problem: text.includes('data:') ? null : 'an empty event stream' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { status, problem: `a body that is not JSON (${contentType}): ${text.slice(0, 200)}` };
  }
  const shaped =
    status === 200 ? isRecord(parsed) && route.reply(parsed) : isShapedError(route.shape, parsed);
  return { status, problem: shaped ? null : `an unshaped ${status} body: ${text.slice(0, 300)}` };
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}

describe('fuzzed request bodies', () => {
  it.each(routes)(
    '$path: 250 bodies, no 5xx, no hang, every answer shaped',
    async (route) => {
      const apiKey = await key({ platform: route.platform });
      const bodies = fuzzBodies({ seed: SEED, count: PER_ROUTE, valid: route.valid });
      const outcomes = await inBatches(bodies, CONCURRENCY, async (fuzzed) => {
        const outcome = await send(route, apiKey, fuzzed);
        env.fake.reset();
        return { ...outcome, name: fuzzed.name };
      });
      const problems = outcomes
        .filter((outcome) => outcome.problem !== null)
        .map((outcome) => `${outcome.name}: ${outcome.problem ?? ''}`);
      expect(problems).toEqual([]);
      // The fuzzer reaches both sides: bodies refused by the gateway and bodies served.
      const statuses = new Set(outcomes.map((outcome) => outcome.status));
      expect(statuses.has(200)).toBe(true);
      expect([...statuses].some((status) => status >= 400)).toBe(true);
      // The gateway still serves the valid body after all that.
      const healthy = await send(route, apiKey, {
        name: 'valid',
        body: Buffer.from(JSON.stringify(route.valid)),
        contentType: 'application/json',
      });
      expect(healthy).toEqual({ status: 200, problem: null });
    },
    60_000,
  );
});
