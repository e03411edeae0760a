import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { USAGE_READERS } from '../../protocols/registry.js';
import {
  ClientClosedError,
  readWholeReply,
  type ReadWholeReplyOptions,
} from './read-whole-reply.js';
import type { MeteredRelay } from './relay-metered-reply.js';

const document = JSON.stringify({
  id: 'msg_1',
  type: 'message',
  model: 'claude-x',
  content: [{ type: 'text', text: 'hello' }],
  usage: { input_tokens: 12, output_tokens: 7 },
});

function pieces(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

function read(source: Readable, overrides: Partial<ReadWholeReplyOptions> = {}) {
  return readWholeReply({
    body: source as unknown as Dispatcher.ResponseData['body'],
    reader: USAGE_READERS['anthropic-messages'],
    translator: null,
    limitBytes: 1024,
    relay: {
      stream: false,
      contentType: 'application/json',
      streamError: () => null,
      onUpstreamError: () => undefined,
    },
    ...overrides,
  });
}

async function collect(relay: MeteredRelay): Promise<string> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await relay.writeTo(out);
  await finished(out);
  return Buffer.concat(chunks).toString('utf8');
}

describe('readWholeReply', () => {
  it('reads a body in pieces whole, byte for byte, and meters it once', async () => {
    const whole = read(Readable.from(pieces(document, 7)));
    const answer = await whole.read;
    expect(answer.kind).toBe('whole');
    expect(answer.kind === 'whole' && answer.body.toString('utf8')).toBe(document);
    const outcome = await whole.outcome;
    expect(outcome.end).toBe('ended');
    expect(outcome.bytes).toBe(Buffer.byteLength(document));
    expect(outcome.report.usage).toMatchObject({ inputUncached: 12, output: 7 });
  });

  it('meters the upstream bytes and answers the translated ones', async () => {
    const whole = read(Readable.from(pieces(document, 5)), {
      translator: {
        push: (chunk) => Buffer.from(chunk.toString('utf8').toUpperCase()),
        end: () => Buffer.from('!'),
      },
    });
    const answer = await whole.read;
    expect(answer.kind === 'whole' && answer.body.toString('utf8')).toBe(
      `${document.toUpperCase()}!`,
    );
    expect((await whole.outcome).report.usage).toMatchObject({ inputUncached: 12, output: 7 });
  });

  it('relays a body past the limit with what was read in front, metered as a relay', async () => {
    const padded = JSON.stringify({ ...JSON.parse(document), padding: 'x'.repeat(3000) });
    const whole = read(Readable.from(pieces(padded, 100)), { limitBytes: 20_000 });
    const small = await whole.read;
    expect(small.kind).toBe('whole');

    const large = read(Readable.from(pieces(padded, 100)), { limitBytes: 1024 });
    const answer = await large.read;
    expect(answer.kind).toBe('relay');
    if (answer.kind !== 'relay') return;
    expect(await collect(answer.relay)).toBe(padded);
    const outcome = await large.outcome;
    expect(outcome.end).toBe('ended');
    expect(outcome.bytes).toBe(Buffer.byteLength(padded));
    expect(outcome.report.usage).toMatchObject({ inputUncached: 12, output: 7 });
  });

  it('rejects with the upstream error and meters the failure when the body breaks', async () => {
    const source = new Readable({ read: () => undefined });
    const whole = read(source);
    source.push(Buffer.from(document.slice(0, 20)));
    setImmediate(() => source.destroy(new Error('reset')));
    await expect(whole.read).rejects.toThrow('reset');
    const outcome = await whole.outcome;
    expect(outcome.end).toBe('upstream-failed');
    expect(outcome.bytes).toBe(20);
    expect(outcome.report.usage).toBeNull();
  });

  it('rejects with ClientClosedError and meters client-closed when the client goes away', async () => {
    const source = new Readable({ read: () => undefined });
    const whole = read(source);
    source.push(Buffer.from(document.slice(0, 10)));
    await new Promise((resolve) => setImmediate(resolve));
    whole.clientClosed();
    await expect(whole.read).rejects.toBeInstanceOf(ClientClosedError);
    expect((await whole.outcome).end).toBe('client-closed');
    // The abort that follows (the upstream request's signal) changes nothing.
    source.destroy(new Error('aborted'));
    whole.clientClosed();
    expect((await whole.outcome).end).toBe('client-closed');
  });
});
