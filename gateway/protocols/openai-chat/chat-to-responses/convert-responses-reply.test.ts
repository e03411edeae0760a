import { describe, expect, it } from 'vitest';
import { convertResponsesReply } from './convert-responses-reply.js';
import { mapResponsesFinishReason } from './map-responses-finish-reason.js';
import replies from './__fixtures__/responses-replies.json' with { type: 'json' };

describe('convertResponsesReply', () => {
  it.each(replies)('$name', ({ reply, chat }) => {
    expect(convertResponsesReply(reply)).toEqual({ ok: true, completion: chat });
  });

  it('turns status failed into an error value carrying the upstream code', () => {
    const result = convertResponsesReply({
      id: 'resp_f',
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'Slow down' },
      output: [],
    });
    expect(result).toEqual({
      ok: false,
      error: {
        message: 'Slow down',
        type: 'server_error',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
  });

  it('turns status cancelled into an error value', () => {
    expect(convertResponsesReply({ id: 'resp_c', status: 'cancelled' })).toMatchObject({
      ok: false,
      error: { message: 'The upstream response cancelled.', code: null },
    });
  });

  it('refuses an unreadable reply', () => {
    expect(convertResponsesReply({ output: 'nope' })).toMatchObject({ ok: false });
  });
});

describe('mapResponsesFinishReason', () => {
  it.each([
    ['completed', null, true, 'tool_calls'],
    ['completed', null, false, 'stop'],
    ['incomplete', 'max_output_tokens', true, 'length'],
    ['incomplete', 'content_filter', false, 'content_filter'],
    ['incomplete', 'something_new', false, 'length'],
    ['failed', null, false, undefined],
    ['cancelled', null, true, undefined],
  ] as const)(
    '%s / %s / function call %s -> %s',
    (status, incompleteReason, sawFunctionCall, expected) => {
      expect(mapResponsesFinishReason({ status, incompleteReason, sawFunctionCall })).toBe(
        expected,
      );
    },
  );
});
