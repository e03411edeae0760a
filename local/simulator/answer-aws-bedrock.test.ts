import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAwsBedrockProvider } from '../../gateway/providers/aws-bedrock/create-aws-bedrock-provider.js';
import type { ResolvedUpstream } from '../../gateway/spec/resolved-upstream.js';
import type { ProviderCall } from '../../gateway/spec/upstream-provider.js';
import { startFakeProvider, type FakeProvider } from './start-fake-provider.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider({ keepRequests: 100 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
});

const provider = createAwsBedrockProvider({ clock: () => Date.now(), endpoints: { awsSts: null } });
const upstream = () =>
  ({
    name: 'demo-bedrock',
    provider: {
      kind: 'AWSBedrock',
      region: 'us-east-1',
      endpoint: fake.url,
      credentials: {
        type: 'AWSAccessKey',
        accessKeyId: 'AKIADEMO',
        secretAccessKey: 'demo',
        sessionToken: null,
      },
    },
  }) as unknown as ResolvedUpstream;

function call(stream: boolean, path = '/v1/messages'): ProviderCall {
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 32,
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  };
  return {
    platform: 'Anthropic',
    method: 'POST',
    path,
    headers: {},
    body: Buffer.from(JSON.stringify(body)),
    stream,
    model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  };
}

async function send(providerCall: ProviderCall) {
  const prepared = await provider.prepare(providerCall, upstream());
  const response = await request(`${prepared.origin}${prepared.path}`, {
    method: prepared.method,
    headers: prepared.headers,
    body: prepared.body,
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, bytes };
}

describe('the simulator as AWS Bedrock', () => {
  it('answers InvokeModel with the Messages JSON of the model the id names', async () => {
    const reply = await send(call(false));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.bytes.toString('utf8'))).toMatchObject({
      type: 'message',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: 'FAKE_OK claude-sonnet-4-5-20250929 part1 part2' }],
    });
    expect(fake.requests.at(-1)?.path).toBe(
      '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
    );
  });

  it('streams event stream messages the AWS SDK decodes, which the provider turns into Anthropic SSE', async () => {
    const reply = await send(call(true));
    expect(reply.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const messages = [];
    for (let at = 0; at < reply.bytes.length; at += reply.bytes.readUInt32BE(at)) {
      messages.push(codec.decode(reply.bytes.subarray(at, at + reply.bytes.readUInt32BE(at))));
    }
    const events: { type: string }[] = [];
    for (const message of messages) {
      expect(message.headers[':message-type']?.value).toBe('event');
      const { bytes } = JSON.parse(toUtf8(message.body)) as { bytes: string };
      events.push(JSON.parse(Buffer.from(bytes, 'base64').toString('utf8')) as { type: string });
    }
    expect(events.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.at(-1)).toMatchObject({
      'amazon-bedrock-invocationMetrics': { outputTokenCount: expect.any(Number) as number },
    });
    const decoder = provider.decodeReply(call(true), {
      status: 200,
      contentType: 'application/vnd.amazon.eventstream',
    });
    const sse = Buffer.concat([
      decoder?.push(reply.bytes) ?? Buffer.alloc(0),
      decoder?.end() ?? Buffer.alloc(0),
    ]).toString('utf8');
    expect(sse).toMatch(/^event: message_start\ndata: \{/);
    expect(sse.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
  });

  it('counts tokens', async () => {
    const reply = await send(call(false, '/v1/messages/count_tokens'));
    expect(JSON.parse(reply.bytes.toString('utf8'))).toEqual({
      inputTokens: expect.any(Number) as number,
    });
  });

  it('throttles in Bedrock shape and refuses an unsigned call', async () => {
    fake.setBehaviour({ status: 429 });
    const throttled = await send(call(false));
    expect(throttled.status).toBe(429);
    expect(throttled.headers['x-amzn-errortype']).toMatch(/^ThrottlingException:/);
    expect(
      provider.mapError?.(call(false), {
        status: 429,
        headers: { 'x-amzn-errortype': String(throttled.headers['x-amzn-errortype']) },
        bytes: throttled.bytes,
      })?.status,
    ).toBe(429);
    fake.setBehaviour({});
    const unsigned = await request(`${fake.url}/model/m/invoke`, { method: 'POST', body: '{}' });
    expect(unsigned.statusCode).toBe(403);
    await unsigned.body.dump();
  });
});
