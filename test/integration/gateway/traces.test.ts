/**
 * Traces through the real gateway: the OpenTelemetry SDK's OTLP/HTTP protobuf exporter sends to a
 * real receiver (test/support/otlp-receiver.ts, which decodes the protobuf), the fake provider is
 * every upstream and the official Anthropic SDK is the caller. The span tree (a server span per
 * call, a client span per upstream attempt, the caller's `traceparent` continued and the attempt's
 * sent upstream), the GenAI and Tollgate attributes against the settled record, the finish reasons
 * the caller received (whole, streamed, and a Gemini stream read from its bytes), a refused call, sampling ratio 0, the drop counter with a collector that hangs, and tracing off.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { Store } from '../../../store/store.js';
import type { ReceivedSpan } from '../../support/decode-otlp-traces.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  spend,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.js';
import { putCloudUpstream } from '../../support/cloud-upstreams.js';
import { startFakeBedrock } from '../../support/fake-bedrock.js';
import { openResponsesSocket } from '../../support/responses-websocket-client.js';
import {
  inOrder,
  messageBody,
  putUpstream,
  settledRecord,
  TinyServers,
} from './upstream-failover-setup.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

const secrets = newSecrets();
const namespace = 'team-traces';
const tiny = new TinyServers();
let store: Store;
let provider: FakeProvider;
let receiver: OtlpReceiver;
const gateways: FastifyInstance[] = [];

beforeAll(async () => {
  store = await openStore('memory', '');
  provider = await startFakeProvider({ keepRequests: 100 });
  receiver = await startOtlpReceiver();
  await writeUpstreams(store, { secrets, baseURL: provider.url });
  await writeAccount(store, namespace);
});

afterAll(async () => {
  for (const app of gateways) await app.close();
  await Promise.all([provider.close(), receiver.close(), tiny.close()]);
  await store.close();
});

async function startGateway(config: Parameters<typeof buildGateway>[2] = {}) {
  const registry = new Registry();
  const app = buildGateway(store, secrets, { registry, ...config });
  gateways.push(app);
  return { app, registry, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

/** A W3C traceparent of a caller span: random ids, sampled or not. */
function callerContext(sampled = true) {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, header: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` };
}

function inTrace(traceId: string) {
  return (span: ReceivedSpan) => span.traceId === traceId;
}

async function droppedSpans(registry: Registry, reason: string): Promise<number> {
  const found = (await registry.getMetricsAsJSON()).find(
    (entry) => entry.name === 'tollgate_trace_spans_dropped_total',
  );
  const values = (found?.values ?? []) as { labels: Record<string, unknown>; value: number }[];
  return values.find((entry) => entry.labels.reason === reason)?.value ?? 0;
}

describe('with --otlp-endpoint', () => {
  let base: string;

  beforeAll(async () => {
    ({ base } = await startGateway({
      config: { otlpEndpoint: receiver.url, traceSampleRatio: 1 },
    }));
  });

  it('exports a server span continuing the caller and a client span, with the GenAI and Tollgate attributes', async () => {
    const { value: apiKey, policy } = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace,
    });
    const caller = callerContext();
    provider.reset();
    const client = new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });
    const { data, response } = await client.messages
      .create(
        {
          model: 'claude-sonnet-4-6',
          max_tokens: 32,
          messages: [{ role: 'user', content: 'trace me' }],
        },
        { headers: { traceparent: caller.header, 'x-claude-code-session-id': 'session-one' } },
      )
      .withResponse();
    expect(data.type).toBe('message');
    const requestId = String(response.headers.get('x-tollgate-request-id'));
    const record = await settledRecord(store, namespace, requestId);

    const spans = await receiver.waitForSpans(inTrace(caller.traceId), 2);
    const server = spans.find((span) => span.kind === SERVER);
    const attempt = spans.find((span) => span.kind === CLIENT);
    expect(server?.parentSpanId).toBe(caller.spanId);
    expect(attempt?.parentSpanId).toBe(server?.spanId);
    expect(server?.resource['service.name']).toBe('tollgate-gateway');
    // The upstream received the attempt's context, not the caller's.
    expect(provider.requests.at(-1)?.headers.traceparent).toBe(
      `00-${caller.traceId}-${attempt?.spanId}-01`,
    );

    const input =
      record.usage.inputUncached +
      record.usage.cacheRead +
      record.usage.cacheWrite5m +
      record.usage.cacheWrite1h;
    expect(record.usage.output).toBeGreaterThan(0);
    expect(server?.name).toBe('POST /v1/messages');
    expect(server?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/messages',
      'http.response.status_code': 200,
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'claude-sonnet-4-6',
      'gen_ai.request.max_tokens': 32,
      'gen_ai.usage.input_tokens': input,
      'gen_ai.usage.output_tokens': record.usage.output,
      'gen_ai.usage.cache_read.input_tokens': record.usage.cacheRead,
      'tollgate.request_id': requestId,
      'tollgate.key': `${namespace}/${policy.name}`,
      'tollgate.group': 'anthropic-group',
      'tollgate.account': record.accountUid,
      'tollgate.upstream': 'anthropic-upstream',
      'tollgate.attempts': 1,
      'tollgate.outcome': 'ok',
    });
    expect(server?.attributes['tollgate.cost_usd']).toBeCloseTo(record.costNano / 1e9, 12);
    expect(record.costNano).toBeGreaterThan(0);
    expect(server?.attributes['tollgate.ttfb_ms']).toBe(record.timeToFirstByteMs);
    expect(server?.attributes['gen_ai.response.model']).toBe(record.upstreamModel);
    // The stop reason the caller received, on the server span and the serving attempt's.
    expect(data.stop_reason).toBe('end_turn');
    expect(server?.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    expect(attempt?.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    // The session is the digest the pools use, never the client's value.
    const session = server?.attributes['session.id'];
    expect(typeof session).toBe('string');
    expect(session).not.toContain('session-one');
    expect(server?.status.code).not.toBe(ERROR);

    expect(attempt?.name).toBe('chat claude-sonnet-4-6');
    expect(attempt?.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-6',
      'gen_ai.usage.output_tokens': record.usage.output,
      'tollgate.upstream': 'anthropic-upstream',
      'tollgate.attempt': 1,
      'tollgate.outcome': 'ok',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'server.port': provider.port,
    });
    // Key values never reach a span.
    const serialized = JSON.stringify(spans, (_key, value: unknown) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    expect(serialized).toContain(requestId);
    expect(serialized).not.toContain(apiKey);
  });

  it('makes one client span per failover attempt, each a child of the server span', async () => {
    const refused = await putUpstream(store, secrets, {
      prefix: 'refused',
      baseURL: await tiny.refused(),
    });
    const serving = await putUpstream(store, secrets, { prefix: 'serving', baseURL: provider.url });
    const { value: apiKey } = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace,
      upstreams: inOrder(refused, serving),
    });
    const caller = callerContext();
    const answer = await request(`${base}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': apiKey,
        traceparent: caller.header,
      },
      body: messageBody(),
    });
    await answer.body.text();
    expect(answer.statusCode).toBe(200);

    const spans = await receiver.waitForSpans(inTrace(caller.traceId), 3);
    const server = spans.find((span) => span.kind === SERVER);
    const attempts = spans
      .filter((span) => span.kind === CLIENT)
      .sort(
        (a, b) =>
          Number(a.attributes['tollgate.attempt']) - Number(b.attributes['tollgate.attempt']),
      );
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) expect(attempt.parentSpanId).toBe(server?.spanId);
    expect(attempts[0]?.attributes).toMatchObject({
      'tollgate.attempt': 1,
      'tollgate.upstream': refused,
      'tollgate.outcome': 'connect_error',
      'tollgate.error_code': 'TG_UPSTREAM_UNREACHABLE',
    });
    expect(attempts[0]?.status.code).toBe(ERROR);
    expect(attempts[1]?.attributes).toMatchObject({
      'tollgate.attempt': 2,
      'tollgate.upstream': serving,
      'tollgate.outcome': 'ok',
    });
    expect(server?.attributes).toMatchObject({
      'tollgate.attempts': 2,
      'tollgate.upstream': serving,
    });
  });

  it('traces a streamed call with its usage', async () => {
    const { value: apiKey } = await createKey(store, secrets, { platform: 'Anthropic', namespace });
    const caller = callerContext();
    const client = new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });
    const stream = client.messages.stream(
      {
        model: 'claude-sonnet-4-6',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'stream' }],
      },
      { headers: { traceparent: caller.header } },
    );
    const message = await stream.finalMessage();
    const requestId = String(
      (await stream.withResponse()).response.headers.get('x-tollgate-request-id'),
    );
    const record = await settledRecord(store, namespace, requestId);
    expect(record.stream).toBe(true);

    const spans = await receiver.waitForSpans(inTrace(caller.traceId), 2);
    const server = spans.find((span) => span.kind === SERVER);
    expect(server?.attributes['gen_ai.usage.output_tokens']).toBe(message.usage.output_tokens);
    expect(server?.attributes['gen_ai.usage.output_tokens']).toBe(record.usage.output);
    expect(server?.attributes['tollgate.cost_usd']).toBeCloseTo(record.costNano / 1e9, 12);
    // The serving attempt's span lasts as long as the stream it relayed.
    const attempt = spans.find((span) => span.kind === CLIENT);
    expect(attempt?.endTimeUnixNano).toBe(server?.endTimeUnixNano);
    // The stop reason of the stream's message_delta.
    expect(message.stop_reason).toBe('end_turn');
    expect(server?.attributes['gen_ai.response.finish_reasons']).toEqual([message.stop_reason]);
    expect(attempt?.attributes['gen_ai.response.finish_reasons']).toEqual([message.stop_reason]);
  });

  it('sets the finish reason of a Gemini stream, whose chunks the meter reads from their bytes', async () => {
    const { value: apiKey } = await createKey(store, secrets, { platform: 'Gemini', namespace });
    const caller = callerContext();
    const client = new GoogleGenAI({
      apiKey,
      httpOptions: { baseUrl: base, headers: { traceparent: caller.header } },
    });
    const reasons: string[] = [];
    for await (const chunk of await client.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'stream a trace',
    })) {
      for (const candidate of chunk.candidates ?? []) {
        if (candidate.finishReason !== undefined) reasons.push(candidate.finishReason);
      }
    }
    expect(reasons).toEqual(['STOP']);

    const spans = await receiver.waitForSpans(inTrace(caller.traceId), 2);
    const server = spans.find((span) => span.kind === SERVER);
    expect(server?.attributes).toMatchObject({
      'gen_ai.provider.name': 'gcp.gemini',
      'gen_ai.operation.name': 'generate_content',
    });
    expect(server?.attributes['gen_ai.response.finish_reasons']).toEqual(reasons);
    const attempt = spans.find((span) => span.kind === CLIENT);
    expect(attempt?.attributes['gen_ai.response.finish_reasons']).toEqual(reasons);
  });

  it('sends the attempt span upstream through a cloud provider (AWS Bedrock, outside the signature)', async () => {
    const keys = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'trace-secret-key' };
    const bedrock = await startFakeBedrock({ region: 'us-west-2', credentials: [keys] });
    try {
      const name = 'bedrock-traced';
      await putCloudUpstream(store, secrets, {
        name,
        platform: 'Anthropic',
        provider: {
          kind: 'AWSBedrock',
          region: 'us-west-2',
          endpoint: bedrock.url,
          credentials: { type: 'AWSAccessKey', ...keys, sessionToken: null },
        },
        modelOverrides: { 'claude-sonnet-4-6': 'us.anthropic.claude-sonnet-4-6-v1:0' },
      });
      const { value: apiKey } = await createKey(store, secrets, {
        platform: 'Anthropic',
        namespace,
        upstreams: [{ name, weight: 1, priority: 0 }],
      });
      const caller = callerContext();
      const answer = await request(`${base}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': apiKey,
          traceparent: caller.header,
        },
        body: messageBody(),
      });
      await answer.body.text();
      expect(answer.statusCode).toBe(200);
      expect(bedrock.refusals).toBe(0);

      const spans = await receiver.waitForSpans(inTrace(caller.traceId), 2);
      const attempt = spans.find((span) => span.kind === CLIENT);
      expect(bedrock.requests.at(-1)?.headers.traceparent).toBe(
        `00-${caller.traceId}-${attempt?.spanId}-01`,
      );
      expect(attempt?.name).toBe('chat us.anthropic.claude-sonnet-4-6-v1:0');
      expect(attempt?.attributes).toMatchObject({
        'gen_ai.provider.name': 'aws.bedrock',
        'gen_ai.system': 'aws.bedrock',
        'gen_ai.request.model': 'us.anthropic.claude-sonnet-4-6-v1:0',
        'server.address': '127.0.0.1',
        'tollgate.upstream': name,
      });
    } finally {
      await bedrock.close();
    }
  });

  it("traces each Responses WebSocket turn as a call in the caller's trace", async () => {
    const { value: apiKey } = await createKey(store, secrets, { platform: 'OpenAI', namespace });
    const caller = callerContext();
    provider.reset();
    const client = await openResponsesSocket(base, {
      authorization: `Bearer ${apiKey}`,
      traceparent: caller.header,
    });
    const events = await client.turn({
      type: 'response.create',
      model: 'gpt-5.4',
      store: false,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    });
    expect(events.at(-1)?.type).toBe('response.completed');
    client.socket.close();

    const spans = await receiver.waitForSpans(
      (span) => inTrace(caller.traceId)(span) && span.name === 'POST /v1/responses',
      1,
    );
    const turn = spans[0];
    expect(turn?.parentSpanId).toBe(caller.spanId);
    expect(turn?.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    const [attempt] = await receiver.waitForSpans(
      (span) => span.kind === CLIENT && span.parentSpanId === turn?.spanId,
      1,
    );
    expect(attempt?.attributes['gen_ai.provider.name']).toBe('openai');
    const forwarded = provider.requests.filter((each) => each.path === '/v1/responses');
    expect(forwarded.at(-1)?.headers.traceparent).toBe(
      `00-${caller.traceId}-${attempt?.spanId}-01`,
    );
  });

  it('gives a refused call a server span with its error code and no attempt span', async () => {
    const { value: apiKey, policy } = await createKey(store, secrets, {
      platform: 'Anthropic',
      namespace,
      overrides: { limits: { quotaNano: 1_000, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 } },
    });
    await spend(store, policy, 1_000);
    const caller = callerContext();
    const answer = await request(`${base}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': apiKey,
        traceparent: caller.header,
      },
      body: messageBody(),
    });
    await answer.body.text();
    expect(answer.statusCode).toBe(429);

    const [server] = await receiver.waitForSpans(inTrace(caller.traceId), 1);
    expect(server?.kind).toBe(SERVER);
    expect(server?.attributes).toMatchObject({
      'tollgate.error_code': 'TG_QUOTA_EXHAUSTED',
      'tollgate.outcome': 'error',
      'http.response.status_code': 429,
    });
    expect(server?.status).toMatchObject({ code: ERROR, message: 'TG_QUOTA_EXHAUSTED' });
    // Every span of the call has been exported by now (one batch): none is an attempt.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.spans.filter(inTrace(caller.traceId)).map((span) => span.kind)).toEqual([
      SERVER,
    ]);
  });
});

describe('sampling and the export queue', () => {
  it('with ratio 0 exports nothing and still passes a context on to the upstream', async () => {
    const otherReceiver = await startOtlpReceiver();
    try {
      const { app, base } = await startGateway({
        config: { otlpEndpoint: otherReceiver.url, traceSampleRatio: 0 },
      });
      const { value: apiKey } = await createKey(store, secrets, {
        platform: 'Anthropic',
        namespace,
      });
      provider.reset();
      const unsampled = callerContext(false);
      for (const headers of [{}, { traceparent: unsampled.header }]) {
        const answer = await request(`${base}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...headers },
          body: messageBody(),
        });
        await answer.body.text();
        expect(answer.statusCode).toBe(200);
      }
      const [fresh, continued] = provider.requests.map((each) => String(each.headers.traceparent));
      expect(fresh).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
      // The caller's trace goes on, unsampled, with the gateway's span id.
      expect(continued).toMatch(new RegExp(`^00-${unsampled.traceId}-[0-9a-f]{16}-00$`));
      expect(continued).not.toContain(unsampled.spanId);
      // Closing flushes the queue: nothing was queued.
      await app.close();
      expect(otherReceiver.exports).toBe(0);
    } finally {
      await otherReceiver.close();
    }
  });

  it('with --trace-parent-sampling ignore, a sampled caller cannot force a trace the ratio does not sample', async () => {
    const otherReceiver = await startOtlpReceiver();
    try {
      const { app, base } = await startGateway({
        config: {
          otlpEndpoint: otherReceiver.url,
          traceSampleRatio: 0,
          traceParentSampling: 'ignore',
        },
      });
      const { value: apiKey } = await createKey(store, secrets, {
        platform: 'Anthropic',
        namespace,
      });
      provider.reset();
      const sampled = callerContext(true);
      const answer = await request(`${base}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': apiKey,
          traceparent: sampled.header,
        },
        body: messageBody(),
      });
      await answer.body.text();
      expect(answer.statusCode).toBe(200);
      // The caller's trace still goes on to the upstream, unsampled, with the gateway's span id.
      const forwarded = String(provider.requests.at(-1)?.headers.traceparent);
      expect(forwarded).toMatch(new RegExp(`^00-${sampled.traceId}-[0-9a-f]{16}-00$`));
      expect(forwarded).not.toContain(sampled.spanId);
      // Closing flushes the queue: nothing was queued.
      await app.close();
      expect(otherReceiver.exports).toBe(0);
    } finally {
      await otherReceiver.close();
    }
  });

  it('counts the spans it drops when the collector hangs, and never holds a call', async () => {
    const hanging = await startOtlpReceiver();
    hanging.stall();
    try {
      const { registry, base } = await startGateway({
        config: { otlpEndpoint: hanging.url, traceSampleRatio: 1, traceQueueSize: 2 },
      });
      const { value: apiKey } = await createKey(store, secrets, {
        platform: 'Anthropic',
        namespace,
      });
      for (let call = 0; call < 6; call++) {
        const answer = await request(`${base}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: messageBody(),
        });
        await answer.body.text();
        expect(answer.statusCode).toBe(200);
      }
      // 12 spans: the first batch of 2 is held by the collector, 2 more wait, the rest are dropped.
      await expect.poll(() => droppedSpans(registry, 'queue_full')).toBeGreaterThanOrEqual(6);
      expect(hanging.exports).toBe(1);
    } finally {
      await hanging.close();
    }
  });
});

describe('without --otlp-endpoint', () => {
  it("passes the caller's traceparent on unchanged and registers no tracing metric", async () => {
    const { registry, base } = await startGateway();
    const { value: apiKey } = await createKey(store, secrets, { platform: 'Anthropic', namespace });
    const caller = callerContext();
    provider.reset();
    const answer = await request(`${base}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': apiKey,
        traceparent: caller.header,
        tracestate: 'vendor=1',
      },
      body: messageBody(),
    });
    await answer.body.text();
    expect(answer.statusCode).toBe(200);
    expect(provider.requests.at(-1)?.headers).toMatchObject({
      traceparent: caller.header,
      tracestate: 'vendor=1',
    });
    expect(registry.getSingleMetric('tollgate_trace_spans_dropped_total')).toBeUndefined();
  });
});
