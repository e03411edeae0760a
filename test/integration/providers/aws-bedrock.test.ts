/**
 * AWS Bedrock upstreams through the gateway with the official Anthropic SDK as the client: the
 * fake Bedrock checks every SigV4 signature with the AWS SDK's signer and streams event stream
 * frames encoded by the AWS SDK's codec; the SDK must read the gateway's replies as first-party
 * ones (JSON, SSE, count_tokens, errors), the usage records carry Bedrock's counts and a cost,
 * a throttled Bedrock upstream fails over to a first-party one, and web identity credentials come
 * from STS.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { computeCost } from '../../../gateway/billing/compute-cost.js';
import { fakeInputTokens } from '../../support/fake-bedrock-wire.js';
import { inOrder, settledRecord } from '../gateway/upstream-failover-setup.js';
import {
  bedrockKey,
  env,
  namespace,
  putBedrockUpstream,
  putDirectUpstream,
  ROLE_ARN,
  SONNET_ON_BEDROCK,
  staticKeys,
  useBedrockGateway,
} from './aws-bedrock-setup.js';

useBedrockGateway();

const messages = [{ role: 'user' as const, content: 'Say hello.' }];
const client = (apiKey: string) => new Anthropic({ apiKey, baseURL: env.base, maxRetries: 0 });

async function bedrockClient(endpoint = env.bedrock.url) {
  const name = await putBedrockUpstream({ endpoint, credentials: staticKeys() });
  return { name, anthropic: client(await bedrockKey(inOrder(name))) };
}

describe('AWS Bedrock through the gateway, @anthropic-ai/sdk as the client', () => {
  it('answers a message from InvokeModel and records its usage and cost', async () => {
    const { name, anthropic } = await bedrockClient();
    const { data, response } = await anthropic.messages
      .create(
        { model: 'claude-sonnet-4-6', max_tokens: 32, messages },
        { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } },
      )
      .withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'Hello from Bedrock.' }]);
    const seen = env.bedrock.requests.at(-1);
    expect(seen).toMatchObject({ operation: 'invoke', modelId: SONNET_ON_BEDROCK });
    expect(seen?.body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 32,
      messages,
      anthropic_beta: ['context-1m-2025-08-07'],
    });
    const requestId = response.headers.get('x-tollgate-request-id') ?? '';
    const record = await settledRecord(env.store, namespace, requestId);
    expect(record).toMatchObject({
      upstream: name,
      status: 200,
      stream: false,
      usage: { inputUncached: fakeInputTokens({ messages }), output: 3 },
    });
    expect(record.costNano).toBeGreaterThan(0);
  });

  it('streams: the SDK reads the re-emitted SSE and the record has the stream usage', async () => {
    const { anthropic } = await bedrockClient();
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages,
    });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const final = await stream.finalMessage();
    expect(texts.join('')).toBe('Hello from Bedrock.');
    expect(final.usage).toMatchObject({
      input_tokens: fakeInputTokens({ messages }),
      output_tokens: 3,
    });
    expect(final.stop_reason).toBe('end_turn');
    const requestId = (await stream.withResponse()).response.headers.get('x-tollgate-request-id');
    const record = await settledRecord(env.store, namespace, requestId ?? '');
    expect(record).toMatchObject({ stream: true, usage: { output: 3 } });
    expect(record.costNano).toBeGreaterThan(0);
    expect(env.bedrock.requests.at(-1)?.operation).toBe('invoke-stream');
  });

  it('meters a stream whose usage only the invocation metrics report', async () => {
    const { anthropic } = await bedrockClient(env.metricsOnly.url);
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages,
    });
    const final = await stream.finalMessage();
    expect(final.usage.output_tokens).toBe(3);
    const requestId = (await stream.withResponse()).response.headers.get('x-tollgate-request-id');
    const record = await settledRecord(env.store, namespace, requestId ?? '');
    expect(record.usage).toMatchObject({ inputUncached: fakeInputTokens({ messages }), output: 3 });
  });

  it("bills the Bedrock upstream's own price and records it", async () => {
    const price = {
      input: 9_000,
      output: 45_000,
      cacheRead: 900,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
    };
    const name = await putBedrockUpstream({
      endpoint: env.bedrock.url,
      credentials: staticKeys(),
      priceOverrides: { 'claude-sonnet-4-6': price },
    });
    const anthropic = client(await bedrockKey(inOrder(name)));
    const { response } = await anthropic.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 32, messages })
      .withResponse();
    const requestId = response.headers.get('x-tollgate-request-id') ?? '';
    const record = await settledRecord(env.store, namespace, requestId);
    expect(record.priceVersion).toMatch(/\/upstream-override$/);
    expect(record.costNano).toBe(
      computeCost(record.usage, price, { numerator: 1, denominator: 1 }),
    );
  });

  it('counts tokens with CountTokens', async () => {
    const { anthropic } = await bedrockClient();
    const counted = await anthropic.messages.countTokens({ model: 'claude-sonnet-4-6', messages });
    expect(counted.input_tokens).toBe(fakeInputTokens({ messages }));
    expect(env.bedrock.requests.at(-1)).toMatchObject({
      operation: 'count-tokens',
      modelId: 'anthropic.claude-sonnet-4-6-v1:0',
    });
  });

  it('answers count_tokens with the local estimate where CountTokens cannot count the model', async () => {
    const { anthropic } = await bedrockClient();
    env.bedrock.refuseCountTokens(true);
    try {
      const counted = await anthropic.messages.countTokens({
        model: 'claude-sonnet-4-6',
        messages,
      });
      // About four bytes of the request body per token: more than none, not Bedrock's count.
      expect(counted.input_tokens).toBeGreaterThan(0);
      expect(counted.input_tokens).not.toBe(fakeInputTokens({ messages }));
      expect(env.bedrock.requests.at(-1)).toMatchObject({ operation: 'count-tokens' });
    } finally {
      env.bedrock.refuseCountTokens(false);
    }
  });

  it('ends a stream broken by an exception frame with the Anthropic error event', async () => {
    const { anthropic } = await bedrockClient();
    env.bedrock.breakNextStream('serviceUnavailableException');
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages,
    });
    await expect(stream.finalMessage()).rejects.toMatchObject({
      error: { type: 'error', error: { type: 'overloaded_error' } },
    });
  });

  it('answers a Bedrock ValidationException as an Anthropic 400', async () => {
    const { anthropic } = await bedrockClient();
    await expect(
      anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 32, messages: [] }),
    ).rejects.toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
  });

  it('fails over from a throttled Bedrock upstream to a first-party one, then skips it', async () => {
    const bedrock = await putBedrockUpstream({
      endpoint: env.bedrock.url,
      credentials: staticKeys(),
    });
    const direct = await putDirectUpstream();
    const anthropic = client(await bedrockKey(inOrder(bedrock, direct)));
    env.bedrock.throttle(1);
    const before = env.bedrock.requests.length;
    const { data, response } = await anthropic.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 32, messages })
      .withResponse();
    expect(data.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('FAKE_OK') as string,
    });
    expect(env.bedrock.requests.length).toBe(before + 1);
    const record = await settledRecord(
      env.store,
      namespace,
      response.headers.get('x-tollgate-request-id') ?? '',
    );
    expect(record).toMatchObject({ upstream: direct, attempts: 2 });
    const next = await anthropic.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages,
    });
    expect(next.content[0]).toMatchObject({ text: expect.stringContaining('FAKE_OK') as string });
    expect(env.bedrock.requests.length).toBe(before + 1);
  });

  it('signs with web identity credentials from STS', async () => {
    const name = await putBedrockUpstream({
      endpoint: env.bedrock.url,
      credentials: { type: 'AWSWebIdentity', roleARN: ROLE_ARN, tokenFile: env.tokenFile },
    });
    const anthropic = client(await bedrockKey(inOrder(name)));
    const calls = env.sts.calls;
    for (let index = 0; index < 2; index += 1) {
      const reply = await anthropic.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 32,
        messages,
      });
      expect(reply.content).toEqual([{ type: 'text', text: 'Hello from Bedrock.' }]);
    }
    expect(env.sts.calls).toBe(calls + 1);
    expect(env.bedrock.requests.at(-1)?.headers['x-amz-security-token']).toBe(
      env.sts.issued.at(-1)?.sessionToken,
    );
  });

  it('answers refused AWS credentials as TG_UPSTREAM_AUTH_FAILED', async () => {
    const name = await putBedrockUpstream({
      endpoint: env.bedrock.url,
      credentials: { ...staticKeys(), secretAccessKey: 'not-the-secret' },
    });
    const refusals = env.bedrock.refusals;
    await expect(
      client(await bedrockKey(inOrder(name))).messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 32,
        messages,
      }),
    ).rejects.toMatchObject({ status: 502 });
    expect(env.bedrock.refusals).toBe(refusals + 1);
  });
});
