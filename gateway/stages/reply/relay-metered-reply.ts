/**
 * The upstream success body as the client's body, metered on the way (STYLE.md 8): every upstream
 * chunk goes through the tap first (usage is read from the upstream bytes), then through the
 * route's reply translator when there is one; pass-through bytes are never re-serialised. A
 * translator that reads the same SSE frames shares the tap's framing. The
 * meter's outcome resolves exactly once: at the upstream's end, when it fails mid-stream (the
 * caller's protocol error event ends the stream, or it is closed), or when the client goes away.
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { StreamFraming, TapOutcome } from '../../bytes/create-stream-tap.js';
import { createStreamTap, sharesFraming } from '../../bytes/create-stream-tap.js';
import { createBodyUsageAccumulator } from '../../metering/create-body-usage-accumulator.js';
import type { UsageReport } from '../../spec/usage-report.js';
import type { ReplyTranslator, UsageReader } from '../../spec/protocol-adapter.js';
import type { ReplyCollector } from '../../capture/reply-collector.js';

/** How the reply ended: normally, because the caller went away, or because the upstream failed. */
export type ReplyEnd = 'ended' | 'client-closed' | 'upstream-failed';

export interface MeteredReply {
  report: UsageReport;
  end: ReplyEnd;
  bytes: number;
  overflowed: boolean;
  /** The upstream failed by going silent longer than its idle timeout (undici's body timeout). */
  idleTimedOut?: boolean;
}

export interface RelayMeteredReplyOptions {
  body: Dispatcher.ResponseData['body'];
  /** Reads the usage in the format the upstream replies in (`adapter.upstreamFormat`). */
  reader: UsageReader;
  stream: boolean;
  contentType: string;
  translator: ReplyTranslator | null;
  /** The caller-protocol frame that ends a stream the upstream broke, or null to just close it. */
  streamError: (error: unknown) => string | null;
  onUpstreamError: (error: unknown) => void;
  /** Chunks already read from `body` (a whole-reply read that grew too large), relayed first. */
  prefix?: readonly Buffer[];
  /** Keeps every byte the caller is sent (captured calls only; absent otherwise). */
  collect?: ReplyCollector | undefined;
}

export interface MeteredRelay {
  body: Readable;
  outcome: Promise<MeteredReply>;
  /** Ends the meter as `client-closed` unless it has ended already. */
  clientClosed(): void;
  /**
   * The meter's report of what was relayed so far, without ending it (the lease renewals carry it,
   * so a gateway that dies mid-stream is charged what it delivered).
   */
  delivered(): UsageReport;
}

/** SSE when the reply says so; a streamed reply in JSON is a JSON array (Gemini without alt=sse). */
export function replyFraming(options: { stream: boolean; contentType: string }): StreamFraming {
  if (options.contentType.toLowerCase().includes('text/event-stream')) return 'sse';
  return options.stream ? 'json-array' : 'json';
}

export function relayMeteredReply(options: RelayMeteredReplyOptions): MeteredRelay {
  const { body: source, translator, reader, collect } = options;
  const framing = replyFraming(options);
  const sink = framing === 'json' ? createBodyUsageAccumulator(reader.body) : reader.stream();
  const tap = createStreamTap<UsageReport>({ framing, sink });
  // A translator that works on the same SSE frames (the Chat usage-chunk stripper) takes them from
  // the tap, so the bytes are framed once; it then relies on `pass` writing each chunk to the tap
  // before pushing it.
  if (translator !== null && framing === 'sse' && sharesFraming(translator)) {
    translator.shareFraming(tap);
  }
  let resolve: (reply: MeteredReply) => void = () => undefined;
  const outcome = new Promise<MeteredReply>((settle) => {
    resolve = settle;
  });
  let ended = false;
  const finish = (end: ReplyEnd, failure?: unknown): void => {
    if (ended) return;
    ended = true;
    const tapped: TapOutcome<UsageReport> = tap.finish({ sourceEnded: end === 'ended' });
    const metered: MeteredReply = {
      report: tapped.result,
      end,
      bytes: tapped.bytes,
      overflowed: tapped.overflowed,
    };
    if ((failure as { code?: unknown } | undefined)?.code === 'UND_ERR_BODY_TIMEOUT') {
      metered.idleTimedOut = true;
    }
    resolve(metered);
  };

  // One readable for the caller's reply, fed from the source's `data` events: no Transform and
  // PassThrough pair per call. Backpressure: the source pauses when the reply's buffer is full and
  // resumes when the reply reads again.
  let sourceDone = false;
  const relay = new Readable({
    read() {
      if (!sourceDone) source.resume();
    },
  });
  const fail = (error: unknown): void => {
    sourceDone = true;
    source.off('data', onData);
    finish('upstream-failed', error);
    if (relay.destroyed) return;
    options.onUpstreamError(error);
    const frame = options.streamError(error);
    if (frame === null) {
      relay.destroy(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    collect?.add(Buffer.from(frame));
    relay.push(frame);
    relay.push(null);
  };
  const pass = (chunk: Buffer): void => {
    tap.write(chunk);
    const out = translator === null ? chunk : translator.push(chunk);
    if (collect !== undefined && out.length > 0) collect.add(out);
    if (out.length > 0 && !relay.push(out)) source.pause();
  };
  function onData(chunk: Buffer): void {
    if (sourceDone) return;
    try {
      pass(chunk);
    } catch (error) {
      fail(error);
    }
  }
  source.once('end', () => {
    if (sourceDone) return;
    sourceDone = true;
    finish('ended');
    try {
      const tail = translator?.end();
      if (tail !== undefined && tail.length > 0) {
        collect?.add(tail);
        relay.push(tail);
      }
    } catch (error) {
      fail(error);
      return;
    }
    relay.push(null);
  });
  source.once('error', (error: unknown) => {
    if (!sourceDone) fail(error);
  });
  relay.once('close', () => {
    finish('client-closed');
    if (!source.destroyed) source.destroy();
  });
  try {
    for (const chunk of options.prefix ?? []) pass(chunk);
  } catch (error) {
    fail(error);
  }
  source.on('data', onData);
  return {
    body: relay,
    outcome,
    clientClosed: () => {
      finish('client-closed');
    },
    delivered: () => sink.result(),
  };
}
