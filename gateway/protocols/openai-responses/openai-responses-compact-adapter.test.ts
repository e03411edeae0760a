import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ForwardContext } from '../../spec/protocol-adapter.js';
import {
  isCompactionMissing,
  openAIResponsesCompactAdapter,
} from './openai-responses-compact-adapter.js';

const bytes = (value: unknown): Buffer =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('isCompactionMissing', () => {
  it.each([
    [404, { error: { message: 'Invalid URL (POST /v1/responses/compact)', code: null } }],
    [404, { detail: 'Not Found' }],
    [404, 'Not Found'],
    [405, ''],
    [501, { error: { message: 'not implemented' } }],
  ])('%s %j: no compaction endpoint', (status, body) => {
    expect(isCompactionMissing(status, bytes(body))).toBe(true);
  });

  it.each([
    [404, { error: { message: 'The model does not exist', code: 'model_not_found' } }],
    [400, { detail: 'Not Found' }],
    [429, 'slow down'],
  ])('%s %j: the upstream answered the request', (status, body) => {
    expect(isCompactionMissing(status, bytes(body))).toBe(false);
  });
});

describe('openAIResponsesCompactAdapter', () => {
  const body = Buffer.from('{"model":"gpt-5.5","input":"hi","stream":true}');
  const context: ForwardContext = {
    path: '/v1/responses/compact',
    query: '',
    body,
    json: JSON.parse(body.toString()) as unknown,
  };

  it('forwards to the upstream compact path with the raw body, never as a stream', () => {
    expect(openAIResponsesCompactAdapter.buildUpstream(context, null)).toEqual({
      path: '/v1/responses/compact',
      body,
    });
    expect(openAIResponsesCompactAdapter.isStream(context)).toBe(false);
    expect(openAIResponsesCompactAdapter.readModel(context)).toBe('gpt-5.5');
  });

  it('refuses a missing endpoint with the catalogue code and passes other errors on', () => {
    const missing = openAIResponsesCompactAdapter.translateReply?.(context, {
      stream: false,
      status: 404,
    });
    missing?.push(bytes({ detail: 'Not Found' }));
    expect(() => missing?.end()).toThrow(GatewayError);
    const other = openAIResponsesCompactAdapter.translateReply?.(context, {
      stream: false,
      status: 400,
    });
    const sent = bytes({ error: { message: 'bad', code: 'invalid_value' } });
    expect(
      Buffer.concat([other?.push(sent) ?? Buffer.alloc(0), other?.end() ?? Buffer.alloc(0)]),
    ).toEqual(sent);
  });
});
