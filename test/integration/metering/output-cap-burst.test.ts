/**
 * Concurrent bursts against a small quota on every platform, on the memory store and on Redis, with
 * the fake upstream answering with every output token it was allowed (its reasoning figure fills
 * the answer up to the cap), so each request costs the most it can.
 *
 * The bound (docs/billing.md section 4): admission lets a request in only while used + reserved <
 * quota, and the reservation covers the whole output cap the upstream is asked for. Of what a
 * request costs, only the input can exceed its reservation: the reservation counts the caller's
 * body bytes / 4, the fake counts the bytes it received / 4 (a translated body is larger). So the
 * settled total stays below quota + the cost of the last request admitted + the input error of
 * each request in flight alongside it. Before, a Chat Completions call with `max_tokens: 0,
 * max_completion_tokens: 4000` reserved no output at all, and every other call at most 1,024
 * output tokens, while the upstream was asked for 4,000.
 */
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../crds/schema/resources.js';
import {
  estimateRequestCost,
  reservedOutputTokens,
} from '../../../gateway/billing/estimate-request-cost.js';
import type { RecordedRequest } from '../../../local/simulator/fake-behaviour.js';
import { computeFakeAnswer } from '../../../local/simulator/compute-fake-answer.js';
import { STORE_KINDS, useMeteringGateway, type CallOptions } from './metering-harness.js';

// Nano-USD per token: $1 per MTok input, $10 per MTok output.
const price = {
  input: 1_000,
  output: 10_000,
  cacheRead: 100,
  cacheWrite5m: 1_250,
  cacheWrite1h: 2_000,
};
const one = { numerator: 1, denominator: 1 };
const text = 'a burst of requests that each use their whole output allowance';

interface BurstCase {
  name: string;
  platform: Platform;
  /** The model the caller names, and the model the fake answers as. */
  model: string;
  path: string;
  header: NonNullable<CallOptions['header']>;
  body: Record<string, unknown>;
  /** The output cap the upstream must be asked for; null = none. */
  cap: number | null;
  /** Output tokens the fake answers with. */
  output: number;
  /** The cap in the request the upstream received. */
  upstreamCap(request: RecordedRequest): unknown;
  quotaNano: number;
  calls: number;
}

type Json = Record<string, Record<string, Record<string, unknown>>>;
const fields = (request: RecordedRequest): Json => request.body as Json;

const cases: BurstCase[] = [
  {
    name: 'Chat Completions with max_tokens 0 and max_completion_tokens 4000',
    platform: 'OpenAI',
    model: 'gpt-5',
    path: '/v1/chat/completions',
    header: 'authorization',
    body: {
      model: 'gpt-5',
      max_tokens: 0,
      max_completion_tokens: 4000,
      messages: [{ role: 'user', content: text }],
    },
    cap: 4000,
    output: 4000,
    upstreamCap: (request) => fields(request).max_output_tokens,
    quotaNano: 50_000_000,
    calls: 200,
  },
  {
    name: 'Anthropic Messages with max_tokens 4000',
    platform: 'Anthropic',
    model: 'claude-sonnet-4-5',
    path: '/v1/messages',
    header: 'x-api-key',
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 4000,
      messages: [{ role: 'user', content: text }],
    },
    cap: 4000,
    output: 4000,
    upstreamCap: (request) => fields(request).max_tokens,
    quotaNano: 500_000_000,
    calls: 100,
  },
  {
    name: 'OpenAI Responses with max_output_tokens 4000',
    platform: 'OpenAI',
    model: 'gpt-5',
    path: '/v1/responses',
    header: 'authorization',
    body: { model: 'gpt-5', input: text, max_output_tokens: 4000 },
    cap: 4000,
    output: 4000,
    upstreamCap: (request) => fields(request).max_output_tokens,
    quotaNano: 500_000_000,
    calls: 100,
  },
  {
    name: 'OpenAI Responses without a cap (the model maximum)',
    platform: 'OpenAI',
    model: 'gpt-5',
    path: '/v1/responses',
    header: 'authorization',
    body: { model: 'gpt-5', input: text },
    cap: null,
    output: 128_000,
    upstreamCap: (request) => fields(request).max_output_tokens ?? null,
    quotaNano: 3_000_000_000,
    calls: 100,
  },
  {
    name: 'Gemini generateContent with maxOutputTokens 4000',
    platform: 'Gemini',
    model: 'gemini-2.5-flash',
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    header: 'x-goog-api-key',
    body: {
      contents: [{ role: 'user', parts: [{ text }] }],
      generationConfig: { maxOutputTokens: 4000 },
    },
    cap: 4000,
    output: 4000,
    upstreamCap: (request) => fields(request).generationConfig?.maxOutputTokens,
    quotaNano: 500_000_000,
    calls: 100,
  },
  {
    name: 'Antigravity messages with max_tokens 4000',
    platform: 'Antigravity',
    model: 'claude-opus-4-6-thinking',
    path: '/antigravity/v1/messages',
    header: 'x-api-key',
    body: {
      model: 'claude-opus-4-6-thinking',
      max_tokens: 4000,
      messages: [{ role: 'user', content: text }],
    },
    cap: 4000,
    output: 4000,
    upstreamCap: (request) => fields(request).request?.generationConfig?.maxOutputTokens,
    quotaNano: 500_000_000,
    calls: 100,
  },
  {
    name: 'Antigravity generateContent with maxOutputTokens 4000',
    platform: 'Antigravity',
    model: 'gemini-3-pro-high',
    path: '/antigravity/v1beta/models/gemini-3-pro-high:generateContent',
    header: 'authorization',
    body: {
      contents: [{ role: 'user', parts: [{ text }] }],
      generationConfig: { maxOutputTokens: 4000 },
    },
    cap: 4000,
    output: 4000,
    upstreamCap: (request) => fields(request).request?.generationConfig?.maxOutputTokens,
    quotaNano: 500_000_000,
    calls: 100,
  },
];

describe.each(STORE_KINDS)('output-cap bursts on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  it.each(cases)('$name: settles within quota + one request + the input error', async (burst) => {
    const key = await env.key({
      platform: burst.platform,
      overrides: {
        limits: { quotaNano: burst.quotaNano, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
      },
      group: { priceOverrides: { [burst.model]: price } },
    });
    const answer = computeFakeAnswer({ model: burst.model, bodyBytes: 0, behaviour: {} });
    env.fake.setBehaviour({
      firstByteDelayMs: 20,
      reasoningTokens: burst.output - answer.textTokens,
    });
    const body = JSON.stringify(burst.body);
    const results = await Promise.all(
      Array.from({ length: burst.calls }, () =>
        env.call({ path: burst.path, apiKey: key.value, body, header: burst.header }),
      ),
    );
    const succeeded = results.filter((result) => result.status === 200).length;
    for (const result of results) {
      if (result.status !== 200) expect(result.text).toContain('TG_QUOTA_EXHAUSTED');
    }
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThan(burst.calls);

    // The upstream was asked for exactly the cap the reservation covered, and used all of it.
    const upstreamCalls = env.fake.requests.filter((request) => !request.path.includes('oauth'));
    expect(upstreamCalls).toHaveLength(succeeded);
    for (const request of upstreamCalls) expect(burst.upstreamCap(request)).toBe(burst.cap);
    const records = await env.waitForRecords(key.keyUid, succeeded);
    expect(records).toHaveLength(succeeded);
    const cost = records[0]?.costNano ?? 0;
    for (const record of records) {
      expect(record).toMatchObject({ status: 200, accuracy: 'exact', costNano: cost });
      expect(record.usage.output).toBe(burst.output);
    }

    const clientBytes = Buffer.byteLength(body);
    const estimate = estimateRequestCost({
      bodyBytes: clientBytes,
      outputTokens: reservedOutputTokens(burst.cap, burst.platform),
      price,
      multiplier: one,
    });
    const upstreamBytes = Math.max(
      ...upstreamCalls.map((request) => Buffer.byteLength(request.rawBody)),
    );
    const inputError =
      Math.max(0, Math.ceil(upstreamBytes / 4) - Math.ceil(clientBytes / 4)) * price.input;
    // Whatever a request costs beyond its reservation is input the body size did not show.
    expect(cost - estimate).toBeLessThanOrEqual(inputError);

    const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
    expect(counters.reservedNano).toBe(0);
    expect(counters.usedNano).toBe(succeeded * cost);
    expect(counters.usedNano).toBeLessThan(burst.quotaNano + cost + (succeeded - 1) * inputError);
  });
});
