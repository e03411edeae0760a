/** The body a captured reply keeps: a JSON document as sent, a stream (SSE or JSON array) rebuilt. */
import { describe, expect, it } from 'vitest';
import { REPLY_REASSEMBLERS } from '../protocols/registry.js';
import { reassembleReply } from './reassemble-reply.js';
import { ReplyCollector } from './reply-collector.js';
import { CaptureReplyBudget } from './capture-reply-budget.js';

function collected(format: 'gemini-generate-content' | 'openai-chat', ...chunks: string[]) {
  const collector = new ReplyCollector(format, 1 << 20, new CaptureReplyBudget(1 << 20));
  for (const chunk of chunks) collector.add(Buffer.from(chunk));
  return collector;
}

const part = (text: string) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] } }],
});

describe('reassembleReply', () => {
  it('keeps a JSON document byte for byte', () => {
    const document = '{ "candidates": [ ] ,"x":1}';
    const reply = collected('gemini-generate-content', document.slice(0, 5), document.slice(5));
    const { body, streamed } = reassembleReply(
      reply,
      REPLY_REASSEMBLERS['gemini-generate-content'],
    );
    expect([body.toString(), streamed]).toEqual([document, false]);
  });

  it('rebuilds a streamed JSON array (Gemini without alt=sse), split anywhere', () => {
    const array = `[${JSON.stringify(part('Hel'))},\r\n${JSON.stringify(part('lo'))}]`;
    const reply = collected('gemini-generate-content', array.slice(0, 13), array.slice(13));
    const { body, streamed } = reassembleReply(
      reply,
      REPLY_REASSEMBLERS['gemini-generate-content'],
    );
    expect(streamed).toBe(true);
    expect(JSON.parse(body.toString())).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] }, index: 0 }],
    });
  });

  it('rebuilds SSE events split across chunks, [DONE] included', () => {
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    const stream = `${chunk('a')}${chunk('b')}data: [DONE]\n\n`;
    const reply = collected('openai-chat', stream.slice(0, 30), stream.slice(30));
    const { body } = reassembleReply(reply, REPLY_REASSEMBLERS['openai-chat']);
    expect(JSON.parse(body.toString())).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'ab' } }],
    });
  });

  it('keeps a stream it cannot read as it came', () => {
    const reply = collected('openai-chat', 'data: not json\n\n');
    expect(reassembleReply(reply, REPLY_REASSEMBLERS['openai-chat']).body.toString()).toBe(
      'data: not json\n\n',
    );
  });
});
