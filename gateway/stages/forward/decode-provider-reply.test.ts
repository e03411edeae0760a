import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import type { ReplyDecoder } from '../../spec/upstream-provider.js';
import { awaitFirstOutput } from './await-first-output.js';
import { decodeProviderReply } from './decode-provider-reply.js';
import { mapProviderError } from './map-provider-error.js';

/** A decoder that turns `a|b|` framed words into one SSE event each; a trailing word is refused. */
function wordsToEvents(): ReplyDecoder {
  let rest = '';
  return {
    contentType: 'text/event-stream',
    push(chunk) {
      const words = (rest + chunk.toString('utf8')).split('|');
      rest = words.pop() ?? '';
      return Buffer.from(words.map((word) => `event: w\ndata: ${word}\n\n`).join(''));
    },
    end() {
      if (rest !== '') throw new Error('truncated');
      return Buffer.alloc(0);
    },
  };
}

function response(body: PassThrough): Dispatcher.ResponseData {
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/vnd.amazon.eventstream', 'content-length': '12' },
    body: body as unknown as Dispatcher.ResponseData['body'],
  } as unknown as Dispatcher.ResponseData;
}

async function readAll(body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('decodeProviderReply', () => {
  it('hands on decoded bytes with the decoder content type and no length', async () => {
    const source = new PassThrough();
    const decoded = decodeProviderReply(response(source), wordsToEvents());
    expect(decoded.headers['content-type']).toBe('text/event-stream');
    expect(decoded.headers).not.toHaveProperty('content-length');
    source.write('he');
    source.end('llo|world|');
    expect(await readAll(decoded.body)).toBe('event: w\ndata: hello\n\nevent: w\ndata: world\n\n');
  });

  it('errors the decoded body on a truncated stream and passes the source error as it is', async () => {
    const truncated = new PassThrough();
    const first = decodeProviderReply(response(truncated), wordsToEvents());
    truncated.end('half');
    await expect(readAll(first.body)).rejects.toThrow('truncated');
    const broken = new PassThrough();
    const second = decodeProviderReply(response(broken), wordsToEvents());
    const timeout = Object.assign(new Error('body timeout'), { code: 'UND_ERR_BODY_TIMEOUT' });
    broken.destroy(timeout);
    await expect(readAll(second.body)).rejects.toBe(timeout);
  });

  it('lets the first-output wait see a decoded event and keeps it for the relay', async () => {
    const source = new PassThrough();
    const decoded = decodeProviderReply(response(source), wordsToEvents());
    const waiting = awaitFirstOutput(decoded.body, { sse: true, timeoutMs: 5_000 });
    source.write('first');
    source.write('|sec');
    expect(await waiting).toEqual({ kind: 'output' });
    source.end('ond|');
    expect(await readAll(decoded.body)).toBe('event: w\ndata: first\n\nevent: w\ndata: second\n\n');
  });

  it('destroys the source when the decoded body is destroyed', async () => {
    const source = new PassThrough();
    const decoded = decodeProviderReply(response(source), wordsToEvents());
    decoded.body.on('error', () => undefined).destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.destroyed).toBe(true);
  });
});

describe('mapProviderError', () => {
  const call = {
    platform: 'Anthropic' as const,
    method: 'POST',
    path: '/v1/messages',
    headers: {},
    body: Buffer.alloc(0),
    stream: false,
    model: null,
  };
  const reply = {
    status: 400,
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': 'Throttling' },
    bytes: Buffer.from('{"message":"slow down"}'),
  };

  it('passes the reply on when the provider maps nothing', () => {
    const plain = { prepare: () => Promise.reject(new Error('unused')), decodeReply: () => null };
    expect(mapProviderError(plain, call, reply)).toBe(reply);
    expect(mapProviderError({ ...plain, mapError: () => null }, call, reply)).toBe(reply);
  });

  it('takes the mapped status and body and turns the throttling hint into retry-after', () => {
    const seen: Record<string, string>[] = [];
    const mapped = mapProviderError(
      {
        prepare: () => Promise.reject(new Error('unused')),
        decodeReply: () => null,
        mapError: (_call, error) => {
          seen.push(error.headers);
          return { status: 429, bytes: Buffer.from('{"type":"error"}'), retryAfterSeconds: 2.5 };
        },
      },
      call,
      reply,
    );
    expect(seen[0]?.['x-amzn-errortype']).toBe('Throttling');
    expect(mapped.status).toBe(429);
    expect(mapped.bytes.toString()).toBe('{"type":"error"}');
    expect(mapped.headers['retry-after']).toBe('3');
    expect(mapped.headers['content-type']).toBe('application/json');
  });
});
