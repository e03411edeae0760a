/**
 * Writing answers with the behaviour's timing and failures: a first-byte delay before the headers, a
 * gap between frames, a connection drop after N frames. Every wait ends early when the client goes
 * away, so a test never hangs on the fake.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { FakeBehaviour } from './fake-behaviour.js';

async function pause(milliseconds: number | undefined, signal: AbortSignal): Promise<void> {
  if (milliseconds === undefined || milliseconds <= 0) return;
  await delay(milliseconds, undefined, { signal }).catch(() => undefined);
}

/** A call, so the check is not narrowed away after an earlier one. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function writeFrame(response: ServerResponse, frame: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    response.write(frame, () => {
      resolve();
    });
  });
}

export interface FakeWriteOptions {
  response: ServerResponse;
  behaviour: FakeBehaviour;
  /** Aborted when the client disconnects or the fake closes. */
  signal: AbortSignal;
  /** Streams in another framing (AWS Bedrock's event stream): each SSE frame re-encoded, null dropped. */
  frames?: { contentType: string; encode: (frame: string) => Buffer | null };
}

export async function sendJson(
  options: FakeWriteOptions,
  reply: { status: number; body: unknown; headers?: Record<string, string> },
): Promise<void> {
  await pause(options.behaviour.firstByteDelayMs, options.signal);
  if (options.signal.aborted) return;
  const text = JSON.stringify(reply.body);
  options.response.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...reply.headers,
  });
  options.response.end(text);
}

export async function sendFrames(
  options: FakeWriteOptions,
  stream: { contentType: string; frames: readonly string[] },
): Promise<void> {
  const { response, behaviour, signal } = options;
  await pause(behaviour.firstByteDelayMs, signal);
  if (signal.aborted) return;
  const contentType = options.frames?.contentType ?? stream.contentType;
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  response.flushHeaders();
  let written = 0;
  for (const frame of stream.frames) {
    if (isAborted(signal)) return;
    if (written > 0) await pause(behaviour.chunkGapMs, signal);
    const encoded = options.frames === undefined ? frame : options.frames.encode(frame);
    if (encoded === null) continue;
    await writeFrame(response, encoded);
    written += 1;
    if (behaviour.dropAfterChunks !== undefined && written >= behaviour.dropAfterChunks) {
      response.socket?.destroy();
      return;
    }
  }
  response.end();
}

/** One SSE frame; `event` adds the `event:` line Anthropic and OpenAI Responses use. */
export function sseFrame(data: unknown, event?: string): string {
  const line = `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
  return event === undefined ? line : `event: ${event}\n${line}`;
}
