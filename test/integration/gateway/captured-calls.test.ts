/**
 * Captured bodies through the real gateway, the real fake provider and the official SDKs, on the
 * memory store and on Redis: every platform route, streamed and not, with a secret planted in the
 * prompt and one in the simulated reply (split across stream frames). What reaches the store's
 * hand-off queue is redacted and says what was redacted, a stream is kept as the reassembled
 * message, the size limit cuts and flags, and a key without capture settings hands nothing off.
 * Responses over WebSocket (a real socket client), to an HTTP upstream and to one with
 * `responsesWebSocket`: each turn, chained or not, is captured like the streamed call it runs as.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CapturedCall, CaptureSettings } from '../../../store/captured-call.js';
import type { Store } from '../../../store/store.js';
import { createRedisKeyNames } from '../../../store/redis-key-names.js';
import { createRedisStore } from '../../../store/redis-store.js';
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
  type StoreKind,
} from '../../support/gateway-fixture.js';
import { openResponsesSocket } from '../../support/responses-websocket-client.js';

const PROMPT_SECRET = 'sk-proj-Zq3vN8xR2mK7pL4wT9yB6cH1jD5fG0sA';
/** The capture's text of PROMPT_SECRET: what the hand-off carries. */
const REDACTED_OPENAI = '[REDACTED:openai-key]';
const AWS_SECRET = 'AKIAQ3EXAMPLEZ7KTR2M';
const REPLY_SECRET = 'sk-ant-api03-Xr7Lm2Qp9Vt4Kw8Nz3Bc6Hd1Jf5Gs0Ay-Tu';
/** Four frames: the reply's key is cut across them. */
const REPLY_TEXT = `Your key is ${REPLY_SECRET} keep it safe.`;

const CAPTURE_ALL: CaptureSettings = {
  requests: true,
  responses: true,
  maxBytes: 65_536,
  retentionDays: 7,
};

interface Env {
  store: Store;
  app: FastifyInstance;
  base: string;
  keys: Record<'Anthropic' | 'OpenAI' | 'Gemini' | 'Antigravity', string>;
}

/** A prompt with a unique tag (to find its capture) and the two planted secrets. */
function prompt(tag: string): string {
  return `case ${tag}: my .env has OPENAI_API_KEY=${PROMPT_SECRET} and ${AWS_SECRET}, fix it`;
}

/** Waits for the capture whose request (or path, with requests off) carries `tag`. */
async function captureOf(store: Store, tag: string, timeoutMs = 5_000): Promise<CapturedCall> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await store.pendingCaptures(10_000);
    const found = pending.find(
      ({ call }) => call.request?.text.includes(tag) === true || call.keyName === tag,
    );
    if (found !== undefined) return found.call;
    if (Date.now() > deadline) throw new Error(`no capture for ${tag}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ONE_OF_EACH = [
  { kind: 'openai-key', count: 1 },
  { kind: 'aws-access-key', count: 1 },
];

/** The checks every capture with both bodies passes (the request's redactions as given). */
function expectRedactedCapture(
  call: CapturedCall,
  streamed: boolean,
  requestRedactions: { kind: string; count: number }[] = ONE_OF_EACH,
): unknown {
  expect(call.streamed).toBe(streamed);
  const request = call.request!;
  expect(request.text).not.toContain(PROMPT_SECRET);
  expect(request.text).not.toContain(AWS_SECRET);
  expect(request.text).toContain('OPENAI_API_KEY=[REDACTED:openai-key]');
  expect(request.redactions).toEqual(expect.arrayContaining(requestRedactions));
  expect(request.truncated).toBe(false);
  // Valid JSON stays valid once redacted.
  JSON.parse(request.text);
  const response = call.response!;
  expect(response.text).not.toContain(REPLY_SECRET);
  // The key was cut across frames: only the reassembled message holds it whole, to redact.
  expect(response.text).not.toContain('Xr7Lm2Qp9');
  expect(response.text).toContain('[REDACTED:anthropic-key]');
  expect(response.redactions).toEqual([{ kind: 'anthropic-key', count: 1 }]);
  expect(response.text).not.toMatch(/^(data|event):/m);
  expect(call.expiresAt - call.at).toBe(7 * 86_400_000);
  return JSON.parse(response.text);
}

const BETA = 'responses_websockets=2026-02-06';
/** An OpenAI upstream (the same simulator) whose turns go over its own WebSocket. */
const SOCKETED_UPSTREAM = 'capture-socketed';

function userText(text: string) {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 250 && !(await check()); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The captures of one key once there are `count`, oldest call first. */
async function capturesOfKey(store: Store, keyUid: string, count: number) {
  let calls: CapturedCall[] = [];
  await until(async () => {
    calls = (await store.pendingCaptures(10_000))
      .map(({ call }) => call)
      .filter((call) => call.keyUid === keyUid);
    return calls.length >= count;
  });
  return calls.sort((a, b) => a.at - b.at);
}

/** The usage records of one key once there are `count`. */
async function recordsOfKey(store: Store, keyUid: string, count: number) {
  let records: Awaited<ReturnType<Store['pendingUsageRecords']>> = [];
  await until(async () => {
    records = (await store.pendingUsageRecords('team-capture', 10_000)).filter(
      (record) => record.keyUid === keyUid,
    );
    return records.length >= count;
  });
  return records;
}

/** The `response` of a turn's last event (`response.completed`). */
function completedResponse(events: Record<string, unknown>[]) {
  const last = events.at(-1) as { type: string; response: { id: string } };
  expect(last.type).toBe('response.completed');
  return last.response;
}

function describeCaptures(kind: StoreKind): void {
  describe(`captured calls (${kind} store)`, () => {
    let env: Env;
    let fake: FakeProvider;
    const secrets = newSecrets();

    beforeAll(async () => {
      const store = await openStore(kind, inject('redisUrl'));
      fake = await startFakeProvider({ keepRequests: 100 });
      fake.setBehaviour({ text: REPLY_TEXT, chunks: 4 });
      await writeUpstreams(store, { secrets, baseURL: fake.url });
      await putApiKeyUpstream(store, secrets, {
        name: SOCKETED_UPSTREAM,
        platform: 'OpenAI',
        baseURL: fake.url,
        responsesWebSocket: true,
      });
      await writeAccount(store, 'team-capture');
      const keys = {} as Env['keys'];
      for (const platform of ['Anthropic', 'OpenAI', 'Gemini', 'Antigravity'] as const) {
        keys[platform] = (
          await createKey(store, secrets, {
            platform,
            namespace: 'team-capture',
            overrides: { capture: CAPTURE_ALL },
          })
        ).value;
      }
      const app = buildGateway(store, secrets);
      env = { store, app, keys, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
    });

    afterAll(async () => {
      await env.app.close();
      await fake.close();
      await env.store.close();
    });

    const anthropic = (platform: 'Anthropic' | 'Antigravity') =>
      new Anthropic({
        apiKey: env.keys[platform],
        baseURL: platform === 'Anthropic' ? env.base : `${env.base}/antigravity`,
        maxRetries: 0,
      });
    const openai = () =>
      new OpenAI({ apiKey: env.keys.OpenAI, baseURL: `${env.base}/v1`, maxRetries: 0 });
    const gemini = (platform: 'Gemini' | 'Antigravity') =>
      new GoogleGenAI({
        apiKey: env.keys[platform],
        httpOptions: { baseUrl: platform === 'Gemini' ? env.base : `${env.base}/antigravity` },
      });

    it.each(['Anthropic', 'Antigravity'] as const)(
      '%s messages, whole and streamed: the Message the caller received',
      async (platform) => {
        const whole = randomUUID();
        const message = await anthropic(platform).messages.create({
          model: 'claude-sonnet-4-6',
          max_tokens: 64,
          messages: [{ role: 'user', content: prompt(whole) }],
        });
        const wholeCall = await captureOf(env.store, whole);
        expect(wholeCall.path).toBe(
          platform === 'Anthropic' ? '/v1/messages' : '/antigravity/v1/messages',
        );
        expect(wholeCall.platform).toBe(platform);
        expect(expectRedactedCapture(wholeCall, false)).toMatchObject({
          type: 'message',
          id: message.id,
          content: [{ type: 'text', text: 'Your key is [REDACTED:anthropic-key] keep it safe.' }],
        });

        const streamed = randomUUID();
        const final = await anthropic(platform)
          .messages.stream({
            model: 'claude-sonnet-4-6',
            max_tokens: 64,
            messages: [{ role: 'user', content: prompt(streamed) }],
          })
          .finalMessage();
        const rebuilt = expectRedactedCapture(await captureOf(env.store, streamed), true);
        // The SDK's own reassembly of the same stream (less the field it adds), secret redacted.
        const sdk: Record<string, unknown> = { ...final };
        delete sdk.parsed_output;
        expect(rebuilt).toEqual(
          JSON.parse(
            JSON.stringify(sdk).replace(REPLY_SECRET, '[REDACTED:anthropic-key]'),
          ) as unknown,
        );
      },
    );

    it('OpenAI responses, whole and streamed: the Response', async () => {
      const whole = randomUUID();
      const response = await openai().responses.create({ model: 'gpt-5', input: prompt(whole) });
      expect(expectRedactedCapture(await captureOf(env.store, whole), false)).toMatchObject({
        object: 'response',
        id: response.id,
      });
      const streamed = randomUUID();
      const final = await openai()
        .responses.stream({ model: 'gpt-5', input: prompt(streamed) })
        .finalResponse();
      const rebuilt = expectRedactedCapture(await captureOf(env.store, streamed), true) as {
        object: string;
        id: string;
        status: string;
        output: { content?: { text?: string }[] }[];
      };
      expect(rebuilt).toMatchObject({ object: 'response', id: final.id, status: 'completed' });
      const text = rebuilt.output.flatMap((item) => item.content ?? []).map((part) => part.text);
      expect(text.join('')).toBe('Your key is [REDACTED:anthropic-key] keep it safe.');
    });

    it.each([
      ['an HTTP upstream', null],
      ['an upstream with responsesWebSocket', SOCKETED_UPSTREAM],
    ] as const)(
      'Responses over WebSocket to %s: each turn captured, the chained one too',
      async (_upstream, upstreamName) => {
        const key = await createKey(env.store, secrets, {
          platform: 'OpenAI',
          namespace: 'team-capture',
          overrides: { capture: CAPTURE_ALL },
          ...(upstreamName === null
            ? {}
            : { upstreams: [{ name: upstreamName, weight: 1, priority: 0 }] }),
        });
        const client = await openResponsesSocket(env.base, {
          authorization: `Bearer ${key.value}`,
          'openai-beta': BETA,
        });
        const [one, two] = [randomUUID(), randomUUID()];
        const since = fake.requests.length;
        try {
          const first = completedResponse(
            await client.turn({
              type: 'response.create',
              model: 'gpt-5',
              store: false,
              input: [userText(prompt(one))],
            }),
          );
          const second = completedResponse(
            await client.turn({
              type: 'response.create',
              model: 'gpt-5',
              store: false,
              previous_response_id: first.id,
              input: [userText(prompt(two))],
            }),
          );
          // The turns reached the simulator as HTTP posts, or as messages on its socket (the
          // second chained there, so the upstream saw only its new input).
          const reached = fake.requests
            .slice(since)
            .filter((request) => request.path === '/v1/responses');
          expect(reached.map((request) => request.method)).toEqual(
            upstreamName === null ? ['POST', 'POST'] : ['WEBSOCKET', 'WEBSOCKET'],
          );
          if (upstreamName !== null) {
            const chained = JSON.parse(reached[1]!.rawBody) as Record<string, unknown>;
            expect(chained.previous_response_id).toBe(first.id);
            expect(chained.input).toEqual([userText(prompt(two))]);
          }
          const calls = await capturesOfKey(env.store, key.policy.keyUid, 2);
          expect(calls).toHaveLength(2);
          // Each turn is its own call: its capture has the request id of its own usage record.
          const records = await recordsOfKey(env.store, key.policy.keyUid, 2);
          expect(new Set(records.map((record) => record.requestId))).toEqual(
            new Set(calls.map((call) => call.requestId)),
          );
          expect(new Set(calls.map((call) => call.requestId)).size).toBe(2);
          for (const call of calls) {
            expect(call).toMatchObject({
              platform: 'OpenAI',
              path: '/v1/responses',
              model: 'gpt-5',
            });
          }
          const [firstCall, secondCall] = calls as [CapturedCall, CapturedCall];

          // The request is the body the turn posts: the message as a streamed Responses create.
          const firstReply = expectRedactedCapture(firstCall, true);
          const firstRequest = JSON.parse(firstCall.request!.text) as { input: unknown[] };
          expect(firstRequest).toEqual({
            model: 'gpt-5',
            store: false,
            input: [
              userText(
                prompt(one)
                  .replace(PROMPT_SECRET, '[REDACTED:openai-key]')
                  .replace(AWS_SECRET, '[REDACTED:aws-access-key]'),
              ),
            ],
            stream: true,
          });
          // The reply is the Response the turn's events carried, as the client received it.
          const redacted = (response: unknown): unknown =>
            JSON.parse(JSON.stringify(response).replace(REPLY_SECRET, '[REDACTED:anthropic-key]'));
          expect(firstReply).toEqual(redacted(first));
          expect(JSON.stringify(firstReply)).toContain(
            'Your key is [REDACTED:anthropic-key] keep it safe.',
          );

          // The chained turn carries the whole input it was answered from: the first turn's
          // input and output (their secrets redacted too), then its own.
          const secondReply = expectRedactedCapture(secondCall, true, [
            { kind: 'openai-key', count: 2 },
            { kind: 'aws-access-key', count: 2 },
            { kind: 'anthropic-key', count: 1 },
          ]);
          const secondRequest = JSON.parse(secondCall.request!.text) as {
            input: unknown[];
            previous_response_id?: unknown;
          };
          expect(secondRequest.previous_response_id).toBeUndefined();
          expect(secondRequest.input).toEqual([
            firstRequest.input[0],
            ...(redacted(first) as { output: unknown[] }).output,
            userText(
              prompt(two)
                .replace(PROMPT_SECRET, '[REDACTED:openai-key]')
                .replace(AWS_SECRET, '[REDACTED:aws-access-key]'),
            ),
          ]);
          expect(secondReply).toEqual(redacted(second));
        } finally {
          client.socket.close();
        }
      },
    );

    it.each([
      ['an HTTP upstream', null],
      ['an upstream with responsesWebSocket', SOCKETED_UPSTREAM],
    ] as const)(
      'Responses over WebSocket to %s: an upstream error and a turn the client left, as far as they went',
      async (_upstream, upstreamName) => {
        const key = await createKey(env.store, secrets, {
          platform: 'OpenAI',
          namespace: 'team-capture',
          overrides: { capture: CAPTURE_ALL },
          ...(upstreamName === null
            ? {}
            : { upstreams: [{ name: upstreamName, weight: 1, priority: 0 }] }),
        });
        const headers = { authorization: `Bearer ${key.value}`, 'openai-beta': BETA };
        const [refused, left] = [randomUUID(), randomUUID()];
        fake.setBehaviour({ status: 400 }, '/v1/responses');
        const client = await openResponsesSocket(env.base, headers);
        try {
          const events = await client.turn({
            type: 'response.create',
            model: 'gpt-5',
            input: prompt(refused),
          });
          expect(events.map((event) => event.type)).toEqual(['error']);
        } finally {
          client.socket.close();
          fake.setBehaviour({ chunkGapMs: 200, chunks: 10 }, '/v1/responses');
        }
        const errorCall = await captureOf(env.store, refused);
        expect(errorCall.request!.text).toContain('OPENAI_API_KEY=[REDACTED:openai-key]');
        // The error body the turn received, which the client got wrapped in its error event.
        expect(JSON.parse(errorCall.response!.text)).toMatchObject({
          error: { type: 'invalid_request_error' },
        });

        const leaving = await openResponsesSocket(env.base, headers);
        try {
          leaving.socket.send(
            JSON.stringify({ type: 'response.create', model: 'gpt-5', input: prompt(left) }),
          );
          const created = (await leaving.next()) as { type: string; response: { id: string } };
          expect(created.type).toBe('response.created');
          leaving.socket.terminate();
          const leftCall = await captureOf(env.store, left);
          expect(leftCall.request!.text).toContain('OPENAI_API_KEY=[REDACTED:openai-key]');
          // Kept as far as it went: the response as created, no output item done yet.
          expect(JSON.parse(leftCall.response!.text)).toMatchObject({
            id: created.response.id,
            status: 'in_progress',
            output: [],
          });
        } finally {
          fake.setBehaviour({}, '/v1/responses');
        }
        const records = await recordsOfKey(env.store, key.policy.keyUid, 2);
        expect(new Set(records.map((record) => record.requestId))).toEqual(
          new Set(
            (await capturesOfKey(env.store, key.policy.keyUid, 2)).map((call) => call.requestId),
          ),
        );
      },
    );

    it('OpenAI chat completions (translated), whole and streamed: the chat.completion', async () => {
      const whole = randomUUID();
      await openai().chat.completions.create({
        model: 'gpt-5',
        messages: [{ role: 'user', content: prompt(whole) }],
      });
      const wholeCall = await captureOf(env.store, whole);
      expect(wholeCall.path).toBe('/v1/chat/completions');
      expect(expectRedactedCapture(wholeCall, false)).toMatchObject({
        object: 'chat.completion',
        choices: [{ message: { content: 'Your key is [REDACTED:anthropic-key] keep it safe.' } }],
      });
      const streamed = randomUUID();
      const stream = await openai().chat.completions.create({
        model: 'gpt-5',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: prompt(streamed) }],
      });
      for await (const chunk of stream) expect(chunk.object).toBe('chat.completion.chunk');
      expect(expectRedactedCapture(await captureOf(env.store, streamed), true)).toMatchObject({
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Your key is [REDACTED:anthropic-key] keep it safe.',
            },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: expect.any(Number) as number },
      });
    });

    it.each(['Gemini', 'Antigravity'] as const)(
      '%s generateContent and streamGenerateContent: the merged GenerateContentResponse',
      async (platform) => {
        const whole = randomUUID();
        await gemini(platform).models.generateContent({
          model: 'gemini-2.5-flash',
          contents: prompt(whole),
        });
        const wholeCall = await captureOf(env.store, whole);
        expect(wholeCall.path).toMatch(/models\/gemini-2\.5-flash:generateContent$/);
        expect(wholeCall.platform).toBe(platform);
        const merged = {
          candidates: [
            {
              content: {
                parts: [{ text: 'Your key is [REDACTED:anthropic-key] keep it safe.' }],
              },
            },
          ],
        };
        expect(expectRedactedCapture(wholeCall, false)).toMatchObject(merged);
        const streamed = randomUUID();
        const stream = await gemini(platform).models.generateContentStream({
          model: 'gemini-2.5-flash',
          contents: prompt(streamed),
        });
        let text = '';
        for await (const chunk of stream) text += chunk.text ?? '';
        expect(text).toBe(REPLY_TEXT);
        const streamedCall = await captureOf(env.store, streamed);
        expect(streamedCall.path).toMatch(/:streamGenerateContent$/);
        expect(expectRedactedCapture(streamedCall, true)).toMatchObject({
          ...merged,
          usageMetadata: { promptTokenCount: expect.any(Number) as number },
        });
      },
    );

    it('cuts a body to maxBytes on a character boundary and flags it', async () => {
      const small = await createKey(env.store, secrets, {
        platform: 'Anthropic',
        namespace: 'team-capture',
        overrides: { capture: { ...CAPTURE_ALL, responses: false, maxBytes: 1024 } },
      });
      const tag = small.policy.name;
      const long = `${'é'.repeat(700)} ${prompt(randomUUID())}`;
      await new Anthropic({
        apiKey: small.value,
        baseURL: env.base,
        maxRetries: 0,
      }).messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 64,
        messages: [{ role: 'user', content: long }],
      });
      const call = await captureOf(env.store, tag);
      expect(call.response).toBeNull();
      const request = call.request!;
      expect(request.truncated).toBe(true);
      expect(request.bytes).toBeGreaterThan(1400);
      expect(Buffer.byteLength(request.text)).toBeLessThanOrEqual(1024);
      expect(Buffer.byteLength(request.text)).toBeGreaterThan(1020);
      expect(request.text).not.toContain('\uFFFD');
      // The secrets past the cut were redacted before it: their counts are still reported.
      expect(request.redactions).toEqual(
        expect.arrayContaining([{ kind: 'openai-key', count: 1 }]),
      );
    });

    it('keeps an upstream error reply as the caller received it', async () => {
      fake.setBehaviour({ status: 400 }, '/v1/messages');
      const tag = randomUUID();
      try {
        const error = await anthropic('Anthropic')
          .messages.create({
            model: 'claude-sonnet-4-6',
            max_tokens: 64,
            messages: [{ role: 'user', content: prompt(tag) }],
          })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      } finally {
        fake.setBehaviour({}, '/v1/messages');
      }
      const call = await captureOf(env.store, tag);
      expect(JSON.parse(call.response!.text)).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error' },
      });
    });

    it('hands nothing off for a key without capture settings', async () => {
      const plain = await createKey(env.store, secrets, {
        platform: 'Anthropic',
        namespace: 'team-capture',
      });
      const captured = await createKey(env.store, secrets, {
        platform: 'Anthropic',
        namespace: 'team-capture',
        overrides: { capture: { ...CAPTURE_ALL, requests: false } },
      });
      const tag = randomUUID();
      for (const key of [plain, captured]) {
        await new Anthropic({
          apiKey: key.value,
          baseURL: env.base,
          maxRetries: 0,
        }).messages.create({
          model: 'claude-sonnet-4-6',
          max_tokens: 64,
          messages: [{ role: 'user', content: tag }],
        });
      }
      // The second call's capture (responses only) arrives; the first call has none.
      const call = await captureOf(env.store, captured.policy.name);
      expect(call.request).toBeNull();
      expect(call.response?.text).toContain('[REDACTED:anthropic-key]');
      const all = await env.store.pendingCaptures(10_000);
      expect(all.filter(({ call: each }) => each.keyUid === plain.policy.keyUid)).toEqual([]);
    });

    it('hands nothing off for the WebSocket turns of a key without capture settings', async () => {
      const plain = await createKey(env.store, secrets, {
        platform: 'OpenAI',
        namespace: 'team-capture',
      });
      const captured = await createKey(env.store, secrets, {
        platform: 'OpenAI',
        namespace: 'team-capture',
        overrides: { capture: CAPTURE_ALL },
      });
      for (const key of [plain, captured]) {
        const client = await openResponsesSocket(env.base, {
          authorization: `Bearer ${key.value}`,
          'openai-beta': BETA,
        });
        try {
          const message = { type: 'response.create', model: 'gpt-5', input: prompt(randomUUID()) };
          const first = completedResponse(await client.turn(message));
          completedResponse(await client.turn({ ...message, previous_response_id: first.id }));
        } finally {
          client.socket.close();
        }
      }
      // Both keys' turns ended and were settled; only the captured key's were handed off.
      expect(await recordsOfKey(env.store, plain.policy.keyUid, 2)).toHaveLength(2);
      expect(await capturesOfKey(env.store, captured.policy.keyUid, 2)).toHaveLength(2);
      const all = await env.store.pendingCaptures(10_000);
      expect(all.filter(({ call }) => call.keyUid === plain.policy.keyUid)).toEqual([]);
    });
  });
}

describeCaptures('memory');
describeCaptures('redis');

describe('a capture hand-off that fails (redis store)', () => {
  it('fails nothing else: the call is answered, its usage record settled, the failure counted', async () => {
    const prefix = `tg-test-capture-${randomUUID().slice(0, 8)}:`;
    const store = await createRedisStore({ url: inject('redisUrl'), prefix });
    const fake = await startFakeProvider({});
    const secrets = newSecrets();
    await writeUpstreams(store, { secrets, baseURL: fake.url });
    await writeAccount(store, 'team-capture-fails');
    const key = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace: 'team-capture-fails',
      overrides: { capture: CAPTURE_ALL },
    });
    // The hand-off stream's key holds a string: every XADD on it fails (WRONGTYPE).
    const redis = new Redis(inject('redisUrl'));
    await redis.set(createRedisKeyNames(prefix).captureStream, 'not a stream');
    // Everything the gateway logs, at every level: no body may reach it.
    let logged = '';
    const app = buildGateway(store, secrets, {
      config: { logLevel: 'trace' },
      logStream: { write: (line) => void (logged += line) },
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const marker = `body-marker-${randomUUID()}`;
    try {
      const message = await new Anthropic({
        apiKey: key.value,
        baseURL: base,
        maxRetries: 0,
      }).messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 64,
        messages: [{ role: 'user', content: `${marker} ${PROMPT_SECRET}` }],
      });
      expect(message.type).toBe('message');
      let failures = 0;
      for (let attempt = 0; attempt < 100 && failures === 0; attempt++) {
        const metric = await app.gateway.registry
          .getSingleMetric('tollgate_capture_failures_total')
          ?.get();
        failures = metric?.values[0]?.value ?? 0;
        if (failures === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(failures).toBe(1);
      expect(logged).toContain('capture failed');
      expect(logged).toContain('WRONGTYPE');
      const replyText = message.content.map((block) => (block.type === 'text' ? block.text : ''));
      for (const text of [marker, PROMPT_SECRET, REDACTED_OPENAI, ...replyText]) {
        expect(text).not.toBe('');
        expect(logged).not.toContain(text);
      }
      const records = await store.pendingUsageRecords('team-capture-fails', 10);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ keyUid: key.policy.keyUid, status: 200 });
    } finally {
      redis.disconnect();
      await app.close();
      await fake.close();
      await store.close();
    }
  });
});

describe('the process-wide budget of captured replies', () => {
  it('truncates the capture of a reply it cannot hold; the caller still gets all of it', async () => {
    const store = await openStore('memory', inject('redisUrl'));
    const fake = await startFakeProvider({});
    fake.setBehaviour({ text: REPLY_TEXT, chunks: 4 });
    const secrets = newSecrets();
    await writeUpstreams(store, { secrets, baseURL: fake.url });
    await writeAccount(store, 'team-capture-budget');
    const key = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace: 'team-capture-budget',
      overrides: { capture: CAPTURE_ALL },
    });
    // Room for the first frame of the stream, not for the rest.
    const app = buildGateway(store, secrets, { config: { captureReplyBudgetBytes: 700 } });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const client = new Anthropic({ apiKey: key.value, baseURL: base, maxRetries: 0 });
      for (const round of [1, 2]) {
        const tag = `budget-${round}-${randomUUID()}`;
        const final = await client.messages
          .stream({
            model: 'claude-sonnet-4-6',
            max_tokens: 64,
            messages: [{ role: 'user', content: prompt(tag) }],
          })
          .finalMessage();
        expect(final.content).toEqual([expect.objectContaining({ text: REPLY_TEXT })]);
        const call = await captureOf(store, tag);
        expect(call.request?.truncated).toBe(false);
        expect(call.response?.truncated).toBe(true);
        // What the budget held, its first frames, is kept: the message's id, not its end.
        expect(call.response?.text).toContain(final.id);
        expect(call.response?.text).not.toContain('keep it safe');
        // Each call's bytes went back to the budget at its end: the next one gets the same room.
        await store.ackCaptures((await store.pendingCaptures(100)).map((capture) => capture.id));
      }
    } finally {
      await app.close();
      await fake.close();
      await store.close();
    }
  });
});
