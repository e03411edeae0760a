/**
 * Byte-level drivers for the pure translators: upstream reply bytes in, client bytes out. A streamed
 * reply is parsed as server-sent events (any line ending, events split across chunks) and each
 * payload handed to the translator; a non-streamed reply is collected (bounded) and converted once.
 */
import type { ReplyTranslator } from '../spec/protocol-adapter.js';
import { createServerSentEventParser } from './parse-server-sent-events.js';

/** What a driver returns: the adapter contract's `ReplyTranslator` (`spec/protocol-adapter.ts`). */
export type ByteTranslator = ReplyTranslator;

export interface EventTranslator {
  /** One SSE payload: parsed JSON, or the raw text when it is not JSON (e.g. `[DONE]`). */
  event(payload: unknown): string[];
  /** The upstream closed. */
  end(): string[];
}

/** Largest non-streamed reply converted (bigger ones are converted as unreadable). */
export const maxReplyBytes = 32 * 1024 * 1024;

function parsePayload(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

const toBuffer = (frames: readonly string[]): Buffer => Buffer.from(frames.join(''), 'utf8');

export function translateEventStream(translator: EventTranslator): ByteTranslator {
  const parser = createServerSentEventParser();
  const frames = (events: readonly { data: string }[]) =>
    events.flatMap((event) => translator.event(parsePayload(event.data)));
  return {
    push: (chunk) => toBuffer(frames(parser.feed(chunk))),
    end: () => toBuffer([...frames(parser.end()), ...translator.end()]),
  };
}

/**
 * A whole JSON body converted once at the end; `convert` receives undefined when the body is not
 * JSON or is larger than `maxReplyBytes`.
 */
export function translateJsonBody(
  convert: (json: unknown) => unknown,
  statusOf: () => number | null = () => null,
): ByteTranslator {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    status: statusOf,
    push(chunk) {
      size += chunk.length;
      if (size <= maxReplyBytes) chunks.push(chunk);
      return Buffer.alloc(0);
    },
    end() {
      let json: unknown = undefined;
      if (size <= maxReplyBytes) {
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        } catch {
          json = undefined;
        }
      }
      chunks.length = 0;
      return Buffer.from(JSON.stringify(convert(json)), 'utf8');
    },
  };
}

/** Bytes passed through untouched (error replies already in the caller's shape). */
export function passBytes(): ByteTranslator {
  return { push: (chunk) => chunk, end: () => Buffer.alloc(0) };
}
