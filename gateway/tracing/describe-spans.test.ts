import { describe, expect, it } from 'vitest';
import {
  genAiProvider,
  operationName,
  requestMaxTokens,
  serverAttributes,
  usageAttributes,
} from './describe-spans.js';

describe('the span attributes', () => {
  it.each([
    ['Anthropic', 'Direct', 'anthropic', 'anthropic'],
    ['OpenAI', 'Direct', 'openai', 'openai'],
    ['Gemini', 'Direct', 'gcp.gemini', 'gcp.gemini'],
    ['Antigravity', 'Direct', 'gcp.gen_ai', 'gcp.gen_ai'],
    ['Anthropic', 'AWSBedrock', 'aws.bedrock', 'aws.bedrock'],
    ['Anthropic', 'GCPVertexAI', 'gcp.vertex_ai', 'gcp.vertex_ai'],
    ['OpenAI', 'AzureOpenAI', 'azure.ai.openai', 'az.ai.openai'],
  ] as const)('name %s through %s as %s (system %s)', (platform, kind, name, system) => {
    expect(genAiProvider(platform, kind)).toEqual({ name, system });
  });

  it.each([
    ['/v1/messages', 'chat'],
    ['/v1/responses', 'chat'],
    ['/v1/chat/completions', 'chat'],
    ['/v1beta/models/gemini-2.5-pro:generateContent', 'generate_content'],
    ['/v1beta/models/gemini-2.5-pro:streamGenerateContent', 'generate_content'],
    ['/v1/messages/count_tokens', 'count_tokens'],
    ['/v1beta/models/gemini-2.5-pro:countTokens', 'count_tokens'],
    ['/v1/embeddings', 'embeddings'],
  ])('name the operation of %s %s', (path, operation) => {
    expect(operationName(path)).toBe(operation);
  });

  it('read max tokens in each spelling, and nothing else', () => {
    expect(requestMaxTokens({ max_tokens: 64 })).toBe(64);
    expect(requestMaxTokens({ max_output_tokens: 65 })).toBe(65);
    expect(requestMaxTokens({ max_completion_tokens: 66 })).toBe(66);
    expect(requestMaxTokens({ generationConfig: { maxOutputTokens: 67 } })).toBe(67);
    expect(requestMaxTokens({ max_tokens: '64' })).toBeNull();
    expect(requestMaxTokens(undefined)).toBeNull();
    expect(requestMaxTokens([1])).toBeNull();
  });

  it('give the server address and port, the default port when none is written', () => {
    expect(serverAttributes('https://api.anthropic.com')).toEqual({
      'server.address': 'api.anthropic.com',
      'server.port': 443,
    });
    expect(serverAttributes('http://127.0.0.1:8089')).toEqual({
      'server.address': '127.0.0.1',
      'server.port': 8089,
    });
    expect(serverAttributes('')).toEqual({});
  });

  it('count cache reads and writes in the input tokens, and the cost in USD', () => {
    expect(
      usageAttributes({
        usage: {
          inputUncached: 10,
          cacheRead: 100,
          cacheWrite5m: 20,
          cacheWrite1h: 5,
          output: 40,
          reasoning: 12,
        },
        costNano: 1_234_567,
        responseModel: 'claude-sonnet-4-6-20260101',
        finishReasons: ['max_tokens'],
      }),
    ).toEqual({
      'gen_ai.usage.input_tokens': 135,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'gen_ai.usage.cache_creation.input_tokens': 25,
      'tollgate.usage.reasoning_tokens': 12,
      'tollgate.cost_usd': 0.001234567,
      'gen_ai.response.model': 'claude-sonnet-4-6-20260101',
      'gen_ai.response.finish_reasons': ['max_tokens'],
    });
  });

  it('leave out the finish reasons when the reply named none', () => {
    const attributes = usageAttributes({
      usage: {
        inputUncached: 1,
        cacheRead: 0,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 0,
        reasoning: 0,
      },
      costNano: 0,
      responseModel: null,
      finishReasons: [],
    });
    expect(attributes).not.toHaveProperty('gen_ai.response.finish_reasons');
    expect(attributes).not.toHaveProperty('gen_ai.response.model');
    expect(attributes['gen_ai.usage.input_tokens']).toBe(1);
  });
});
