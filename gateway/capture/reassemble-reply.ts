/**
 * The reply a caller received as the one body its capture keeps: a JSON document as it was sent;
 * a stream (SSE events, or a JSON array of chunks) as the message its events carried, rebuilt by
 * the reassembler of the caller's wire format and written as JSON. The framing is read from the
 * bytes (the caller's, after any translation), so translated routes keep what the caller saw.
 * Runs at the request's end, never while the reply is sent.
 */
import { createStreamTap, type StreamFraming } from '../bytes/create-stream-tap.js';
import type { ReplyReassembler } from '../spec/reply-reassembler.js';
import type { ReplyCollector } from './reply-collector.js';

/** SSE when the body starts with an SSE field, a JSON array when with `[`, else one document. */
export function sniffFraming(first: Buffer | undefined): StreamFraming {
  if (first === undefined) return 'json';
  let start = 0;
  while (start < first.length && /\s/.test(String.fromCharCode(first[start] ?? 0))) start += 1;
  const head = first.subarray(start, start + 6).toString('latin1');
  if (/^(data|event|id|retry):/.test(head) || head.startsWith(':')) return 'sse';
  return head.startsWith('[') ? 'json-array' : 'json';
}

/** The body to capture, and whether it was rebuilt from a stream. */
export function reassembleReply(
  collected: ReplyCollector,
  reassembler: () => ReplyReassembler,
): { body: Buffer; streamed: boolean } {
  const whole = Buffer.concat(collected.chunks, collected.bytes);
  const framing = sniffFraming(whole);
  if (framing === 'json') return { body: whole, streamed: false };
  const sink = reassembler();
  const tap = createStreamTap({ framing, sink });
  tap.write(whole);
  const message = tap.finish({ sourceEnded: !collected.overflowed }).result;
  // A stream whose events were not understood is kept as it came (redacted all the same).
  return message === null
    ? { body: whole, streamed: true }
    : { body: Buffer.from(JSON.stringify(message), 'utf8'), streamed: true };
}
