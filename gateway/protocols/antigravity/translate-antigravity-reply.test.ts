import { describe, expect, it } from 'vitest';
import { translateGeminiReply, translateMessagesReply } from './translate-antigravity-reply.js';

const chunk = (text: string, finish?: string) =>
  `data: ${JSON.stringify({
    response: {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: finish }],
    },
    traceId: 't1',
  })}\n\n`;

function run(translator: { push(b: Buffer): Buffer; end(): Buffer }, parts: readonly string[]) {
  const out = parts.map((part) => translator.push(Buffer.from(part)).toString('utf8'));
  return out.join('') + translator.end().toString('utf8');
}

describe('translateGeminiReply', () => {
  it('unwraps SSE chunks for an alt=sse client', () => {
    const text = run(translateGeminiReply({ stream: true, sse: true, status: 200 }), [
      chunk('a'),
      chunk('b', 'STOP'),
    ]);
    const payloads = text
      .split('\n\n')
      .filter((frame) => frame !== '')
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')) as Record<string, unknown>);
    expect(payloads).toHaveLength(2);
    expect(payloads[1]).toMatchObject({ candidates: [{ finishReason: 'STOP' }], responseId: 't1' });
    expect(payloads[0]).not.toHaveProperty('response');
  });

  it('frames the chunks as one JSON array for a client without alt=sse', () => {
    const text = run(translateGeminiReply({ stream: true, sse: false, status: 200 }), [
      chunk('a'),
      chunk('b', 'STOP'),
    ]);
    const array = JSON.parse(text) as unknown[];
    expect(array).toHaveLength(2);
    expect(array[0]).toMatchObject({ candidates: [{ content: { parts: [{ text: 'a' }] } }] });
    expect(run(translateGeminiReply({ stream: true, sse: false, status: 200 }), [])).toBe('[]');
  });
});

describe('translateMessagesReply', () => {
  const base = { model: 'claude-sonnet-4-6', messageId: 'msg_1' };

  it('turns a Google error body into an Anthropic error body', () => {
    const google = { error: { code: 400, message: 'Bad contents', status: 'INVALID_ARGUMENT' } };
    const text = run(
      translateMessagesReply({ ...base, kind: 'message', stream: true, status: 400 }),
      [JSON.stringify(google)],
    );
    expect(JSON.parse(text)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Bad contents' },
    });
  });

  it('turns {totalTokens} into {input_tokens}', () => {
    const translator = translateMessagesReply({
      ...base,
      kind: 'count-tokens',
      stream: false,
      status: 200,
    });
    expect(JSON.parse(run(translator, ['{"totalTokens":42}']))).toEqual({ input_tokens: 42 });
  });
});
