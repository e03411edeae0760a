import { describe, expect, it } from 'vitest';
import { foundationModelOf, mapBedrockRequest, readBetas } from './map-bedrock-request.js';

const body = Buffer.from(
  JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 64,
    stream: true,
    messages: [{ role: 'user', content: 'hi' }],
  }),
);

describe('mapBedrockRequest', () => {
  it('streams on invoke-with-response-stream with the Bedrock body', () => {
    const result = mapBedrockRequest({
      path: '/v1/messages?beta=true',
      body,
      stream: true,
      model: 'us.anthropic.claude-sonnet-4-6-v1:0',
      betaHeader:
        'claude-code-20250219,interleaved-thinking-2025-05-14, context-1m-2025-08-07,' +
        'oauth-2025-04-20,advanced-tool-use-2025-11-20,prompt-caching-scope-2026-01-05',
    });
    if (!result.ok) throw new Error(result.detail);
    expect(result.request.path).toBe(
      '/model/us.anthropic.claude-sonnet-4-6-v1%3A0/invoke-with-response-stream',
    );
    expect(result.request.accept).toBe('application/vnd.amazon.eventstream');
    expect(JSON.parse(result.request.body.toString('utf8'))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      anthropic_beta: [
        'interleaved-thinking-2025-05-14',
        'context-1m-2025-08-07',
        'tool-search-tool-2025-10-19',
      ],
    });
  });

  it('invokes without streaming, an ARN kept as one path segment, no betas', () => {
    const arn = 'arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/abc123';
    const result = mapBedrockRequest({
      path: '/v1/messages',
      body,
      stream: false,
      model: arn,
      betaHeader: undefined,
    });
    if (!result.ok) throw new Error(result.detail);
    expect(result.request.path).toBe(`/model/${encodeURIComponent(arn)}/invoke`);
    expect(result.request.path.split('/')).toHaveLength(4);
    expect(JSON.parse(result.request.body.toString('utf8'))).not.toHaveProperty('anthropic_beta');
    const onlyFirstParty = mapBedrockRequest({
      path: '/v1/messages',
      body,
      stream: false,
      model: arn,
      betaHeader: 'claude-code-20250219,oauth-2025-04-20',
    });
    if (!onlyFirstParty.ok) throw new Error(onlyFirstParty.detail);
    expect(JSON.parse(onlyFirstParty.request.body.toString('utf8'))).not.toHaveProperty(
      'anthropic_beta',
    );
  });

  it('counts tokens with CountTokens on the foundation model', () => {
    const counting = Buffer.from(
      JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );
    const result = mapBedrockRequest({
      path: '/v1/messages/count_tokens',
      body: counting,
      stream: false,
      model: 'eu.anthropic.claude-haiku-4-5-20251001-v1:0',
      betaHeader: undefined,
    });
    if (!result.ok) throw new Error(result.detail);
    expect(result.request.operation).toBe('count-tokens');
    expect(result.request.path).toBe(
      '/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/count-tokens',
    );
    const wrapped = JSON.parse(result.request.body.toString('utf8')) as {
      input: { invokeModel: { body: string } };
    };
    expect(
      JSON.parse(Buffer.from(wrapped.input.invokeModel.body, 'base64').toString('utf8')),
    ).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 1,
    });
  });

  it('refuses other paths, a missing model and a body that is not a JSON object', () => {
    const input = { path: '/v1/messages', body, stream: false, model: 'm', betaHeader: undefined };
    expect(mapBedrockRequest({ ...input, path: '/v1/models' })).toMatchObject({ ok: false });
    expect(mapBedrockRequest({ ...input, model: null })).toMatchObject({ ok: false });
    expect(mapBedrockRequest({ ...input, body: Buffer.from('[1]') })).toMatchObject({ ok: false });
    expect(mapBedrockRequest({ ...input, body: Buffer.from('{') })).toMatchObject({ ok: false });
  });

  it('reads betas and foundation model ids', () => {
    expect(readBetas(' a ,b,, c')).toEqual(['a', 'b', 'c']);
    expect(readBetas(undefined)).toEqual([]);
    expect(foundationModelOf('global.anthropic.claude-x-v1:0')).toBe('anthropic.claude-x-v1:0');
    expect(foundationModelOf('anthropic.claude-x-v1:0')).toBe('anthropic.claude-x-v1:0');
  });
});
