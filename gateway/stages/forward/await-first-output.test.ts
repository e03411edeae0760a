import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { awaitFirstOutput } from './await-first-output.js';

function controlled(): Readable {
  return new Readable({ read() {} });
}

/** The body's chunks as the reply stage's relay takes them: `data` events, resumed on pull. */
function readAll(body: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  body.on('data', (chunk: Buffer) => chunks.push(chunk));
  body.resume();
  return new Promise((resolve, reject) => {
    body.once('end', () => {
      resolve(chunks);
    });
    body.once('error', reject);
  });
}

/** A buffer of its own (not a slice of Node's shared pool), so identity says it was not copied. */
function unpooled(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}

describe('awaitFirstOutput', () => {
  it('hands back the chunks read, the same buffers, at the head of the body', async () => {
    const body = controlled();
    const first = unpooled('event: a\n');
    const second = unpooled('data: {}\n\n');
    const waiting = awaitFirstOutput(body, { sse: true, timeoutMs: 5_000 });
    body.push(first);
    setImmediate(() => {
      body.push(second);
      // Arrives with the first event, in the same turn: held, not taken by the wait.
      body.push(unpooled('data: 2\n\n'));
    });
    expect(await waiting).toEqual({ kind: 'output' });
    // Paused: nothing flows until the reader pulls.
    expect(body.isPaused()).toBe(true);
    body.push(null);
    const chunks = await readAll(body);
    expect(Buffer.concat(chunks).toString()).toBe('event: a\ndata: {}\n\ndata: 2\n\n');
    // Not copied: what is handed on is a view of the very memory read (Node may re-slice it).
    expect(chunks[0]?.buffer).toBe(first.buffer);
    expect(chunks[1]?.buffer).toBe(second.buffer);
  });

  it('takes the first bytes of a stream that is not server-sent events', async () => {
    const body = controlled();
    const waiting = awaitFirstOutput(body, { sse: false, timeoutMs: 5_000 });
    body.push('[');
    expect(await waiting).toEqual({ kind: 'output' });
    body.push(null);
    expect(Buffer.concat(await readAll(body)).toString()).toBe('[');
  });

  it('times out when only keep-alive comments come', async () => {
    const body = controlled();
    const waiting = awaitFirstOutput(body, { sse: true, timeoutMs: 50 });
    body.push(': ping\n\n');
    expect(await waiting).toEqual({ kind: 'timeout' });
    expect(body.listenerCount('readable') + body.listenerCount('error')).toBe(0);
    body.destroy();
  });

  it('tells a body that ends or breaks before its first output', async () => {
    const ended = controlled();
    const endWait = awaitFirstOutput(ended, { sse: true, timeoutMs: 5_000 });
    ended.push('data: cut');
    ended.push(null);
    expect(await endWait).toEqual({ kind: 'ended' });
    const broken = controlled();
    const brokenWait = awaitFirstOutput(broken, { sse: true, timeoutMs: 5_000 });
    const error = new Error('reset');
    broken.destroy(error);
    expect(await brokenWait).toEqual({ kind: 'failed', error });
  });
});
