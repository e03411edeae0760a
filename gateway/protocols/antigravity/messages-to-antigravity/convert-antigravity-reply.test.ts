import { describe, expect, it } from 'vitest';
import { convertCountTokensReply, convertCountTokensRequest } from './convert-count-tokens.js';
import { convertAntigravityReply } from './convert-antigravity-reply.js';
import replies from './__fixtures__/antigravity-replies.json' with { type: 'json' };

const options = { model: 'claude-sonnet-4-6', messageId: 'msg_abc' };

describe('convertAntigravityReply', () => {
  it.each(replies)('$name', ({ reply, message }) => {
    expect(convertAntigravityReply(reply, options)).toEqual({ ok: true, message });
  });

  it('renders a Google error as an Anthropic error type with its status', () => {
    const body = {
      error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' },
    };
    expect(convertAntigravityReply(body, options)).toEqual({
      ok: false,
      status: 429,
      error: { type: 'rate_limit_error', message: 'Resource has been exhausted' },
    });
  });

  it('refuses an unreadable reply with a 502', () => {
    expect(convertAntigravityReply({ unrelated: true }, options)).toMatchObject({
      ok: false,
      status: 502,
    });
  });
});

describe('count tokens', () => {
  it('maps the request to models/<m> with the system prompt as a leading user turn', () => {
    const result = convertCountTokensRequest({
      model: 'claude-sonnet-4-6',
      system: 'Sys',
      messages: [{ role: 'user', content: 'Hello' }],
      tools: [{ name: 'Read', input_schema: { type: 'object' } }],
    });
    expect(result).toEqual({
      ok: true,
      model: 'claude-sonnet-4-6',
      body: {
        request: {
          model: 'models/claude-sonnet-4-6',
          contents: [
            { role: 'user', parts: [{ text: 'Sys' }] },
            { role: 'user', parts: [{ text: 'Hello' }] },
          ],
        },
      },
    });
  });

  it('refuses a body without messages', () => {
    expect(convertCountTokensRequest({ model: 'm' })).toMatchObject({
      ok: false,
      param: 'messages',
    });
  });

  it('maps {totalTokens} to {input_tokens}', () => {
    expect(convertCountTokensReply({ totalTokens: 14 })).toEqual({ input_tokens: 14 });
    expect(convertCountTokensReply({ error: {} })).toBeUndefined();
  });
});
