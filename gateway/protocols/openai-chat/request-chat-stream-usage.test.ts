import { describe, expect, it } from 'vitest';
import {
  createChatUsageChunkStripper,
  requestChatStreamUsage,
} from './request-chat-stream-usage.js';

const usageFrame =
  'data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}\n\n';
const textFrame =
  'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"h\u00e9"}}]}\n\n';

function run(chunks: string[]): string {
  const stripper = createChatUsageChunkStripper();
  const parts = chunks.map((chunk) => stripper.push(Buffer.from(chunk, 'utf8')));
  parts.push(stripper.end());
  return Buffer.concat(parts).toString('utf8');
}

describe('requestChatStreamUsage', () => {
  it('leaves non-streamed and usage-asking requests untouched', () => {
    const body = Buffer.from('{"model":"gpt-4.1", "stream":false}');
    expect(requestChatStreamUsage({ body, json: JSON.parse(body.toString()) })).toEqual({
      body,
      stripUsageChunk: false,
    });
    const asking = Buffer.from('{"stream":true,"stream_options":{"include_usage":true}}');
    const plan = requestChatStreamUsage({ body: asking, json: JSON.parse(asking.toString()) });
    expect(plan.body).toBe(asking);
    expect(plan.stripUsageChunk).toBe(false);
  });

  it('asks for usage, keeping other stream options, when the caller streams without it', () => {
    const json = { model: 'gpt-4.1', stream: true, stream_options: { include_obfuscation: false } };
    const plan = requestChatStreamUsage({ body: Buffer.from(JSON.stringify(json)), json });
    expect(plan.stripUsageChunk).toBe(true);
    expect(JSON.parse(plan.body?.toString() ?? '')).toEqual({
      ...json,
      stream_options: { include_obfuscation: false, include_usage: true },
    });
  });
});

describe('createChatUsageChunkStripper', () => {
  it('removes only the usage chunk and keeps every other byte', () => {
    const stream = `${textFrame}${usageFrame}data: [DONE]\n\n`;
    expect(run([stream])).toBe(`${textFrame}data: [DONE]\n\n`);
  });

  it('works when frames and multi-byte characters are split across chunks', () => {
    const stream = `${textFrame}${usageFrame}data: [DONE]\n\n`;
    const bytes = Buffer.from(stream, 'utf8');
    const stripper = createChatUsageChunkStripper();
    const out: Buffer[] = [];
    for (let index = 0; index < bytes.length; index += 7) {
      out.push(stripper.push(bytes.subarray(index, index + 7)));
    }
    out.push(stripper.end());
    expect(Buffer.concat(out).toString('utf8')).toBe(`${textFrame}data: [DONE]\n\n`);
  });

  it('handles CRLF frames and keeps a chunk with choices and usage', () => {
    const crlf = usageFrame.replace('\n\n', '\r\n\r\n');
    const withChoices = 'data: {"choices":[{"index":0,"delta":{}}],"usage":{"total_tokens":1}}\n\n';
    expect(run([crlf, withChoices, 'data: [DONE]'])).toBe(`${withChoices}data: [DONE]`);
  });

  it('finds a frame end split at any byte, the resumed search included', () => {
    const crlf = (frame: string) => frame.replace('\n\n', '\r\n\r\n');
    const stream = `${crlf(textFrame)}${crlf(usageFrame)}${crlf(textFrame)}`;
    const bytes = Buffer.from(stream, 'utf8');
    for (let cut = 1; cut < bytes.length; cut++) {
      for (const second of [cut + 1, cut + 2, cut + 3]) {
        const stripper = createChatUsageChunkStripper();
        const out = [
          stripper.push(bytes.subarray(0, cut)),
          stripper.push(bytes.subarray(cut, second)),
          stripper.push(bytes.subarray(second)),
          stripper.end(),
        ];
        expect(Buffer.concat(out).toString('utf8')).toBe(`${crlf(textFrame)}${crlf(textFrame)}`);
      }
    }
  });

  it('passes a chunk of whole frames without a usage chunk on as it came', () => {
    const stripper = createChatUsageChunkStripper();
    const chunk = Buffer.from(`${textFrame}${textFrame}`, 'utf8');
    expect(stripper.push(chunk)).toBe(chunk);
  });
});
