/**
 * The upstream success body as the client's body, metered on the way (STYLE.md 8): every upstream
 * chunk goes through the tap first (usage is read from the upstream bytes), then through the
 * route's reply translator when there is one, then is written to the caller's response by the
 * relay itself (`writeTo`); pass-through bytes are never re-serialised. A translator that reads
 * the same SSE frames shares the tap's framing. The meter's outcome resolves exactly once: at the
 * upstream's end, when it fails mid-stream (the caller's protocol error event ends the stream, or
 * it is closed), or when the client goes away.
 */
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

/**
 * Where a relay writes: the caller's response (node:http), or any writable that collects it. The
 * relay writes each chunk itself (no stream in between), stops reading the upstream while `write`
 * returns false and resumes on `drain`; `close` before the end means the caller went away.
 */
export interface RelayTarget {
  write(chunk: Buffer | string): boolean;
  end(chunk?: Buffer | string): unknown;
  destroy(error?: Error): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed: boolean;
}

export interface MeteredRelay {
  /**
   * Starts relaying into `out`. `onFirstOutput` runs once, just before the first byte (or the end
   * of an empty reply) is handed to `out`, told whether that is the end (`out.end`: nothing was
   * written before it) or a first write. Resolves then, or when `out` closes first; rejects,
   * having written nothing, when the upstream fails before any byte and the caller's protocol has
   * no error frame (the caller answers the failure instead).
   */
  writeTo(out: RelayTarget, onFirstOutput?: (ending: boolean) => void): Promise<void>;
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

  // The reply is written to `out` from the source's `data` events: no Readable, Transform or pipe
  // per call. Back-pressure: the source pauses when `out` is full and resumes on its `drain`.
  let out: RelayTarget | null = null;
  let onFirstOutput: ((ending: boolean) => void) | undefined;
  let started: { resolve: () => void; reject: (error: Error) => void } | null = null;
  let output = false;
  let sourceDone = false;
  /** A failure of the source before `writeTo`: delivered when it starts. */
  let early: { error: unknown } | null = null;
  const firstOutput = (ending: boolean): void => {
    output = true;
    onFirstOutput?.(ending);
    started?.resolve();
  };
  const write = (target: RelayTarget, chunk: Buffer | string): boolean => {
    if (!output) firstOutput(false);
    return target.write(chunk);
  };
  const endOut = (target: RelayTarget, tail?: Buffer): void => {
    if (!output) firstOutput(true);
    if (tail === undefined) target.end();
    else target.end(tail);
  };
  const deliverFailure = (target: RelayTarget, error: unknown): void => {
    if (target.destroyed) {
      started?.resolve();
      return;
    }
    options.onUpstreamError(error);
    const frame = options.streamError(error);
    const failure = error instanceof Error ? error : new Error(String(error));
    if (frame === null) {
      // Nothing sent yet: the caller answers the failure in its protocol.
      if (!output) {
        started?.reject(failure);
        return;
      }
      target.destroy(failure);
      return;
    }
    collect?.add(Buffer.from(frame));
    write(target, frame);
    endOut(target);
  };
  const fail = (error: unknown): void => {
    sourceDone = true;
    source.off('data', onData);
    finish('upstream-failed', error);
    if (out === null) early = { error };
    else deliverFailure(out, error);
  };
  let waitingDrain = false;
  const onDrain = (): void => {
    waitingDrain = false;
    if (!sourceDone) source.resume();
  };
  const pass = (chunk: Buffer): void => {
    tap.write(chunk);
    const piece = translator === null ? chunk : translator.push(chunk);
    if (piece.length === 0) return;
    if (collect !== undefined) collect.add(piece);
    const target = out as RelayTarget;
    if (!write(target, piece) && !waitingDrain) {
      waitingDrain = true;
      source.pause();
      target.once('drain', onDrain);
    }
  };
  function onData(chunk: Buffer): void {
    if (sourceDone) return;
    try {
      pass(chunk);
    } catch (error) {
      fail(error);
    }
  }
  const onEnd = (): void => {
    if (sourceDone) return;
    sourceDone = true;
    finish('ended');
    const target = out as RelayTarget;
    let tail: Buffer | undefined;
    try {
      tail = translator?.end();
    } catch (error) {
      fail(error);
      return;
    }
    if (tail !== undefined && tail.length > 0) {
      collect?.add(tail);
      endOut(target, tail);
    } else endOut(target);
  };
  source.once('error', (error: unknown) => {
    if (!sourceDone) fail(error);
  });
  const onClose = (): void => {
    finish('client-closed');
    started?.resolve();
    if (!source.destroyed) source.destroy();
  };
  const writeTo = (target: RelayTarget, first?: (ending: boolean) => void): Promise<void> => {
    out = target;
    onFirstOutput = first;
    const running = new Promise<void>((resolve, reject) => {
      started = { resolve, reject };
    });
    if (target.destroyed) {
      // The caller went away before the relay started: its `close` has been and gone.
      onClose();
      return running;
    }
    target.once('close', onClose);
    if (early !== null) {
      deliverFailure(target, early.error);
      return running;
    }
    if (ended) {
      // The caller went away before the relay started.
      started = null;
      return Promise.resolve();
    }
    try {
      for (const chunk of options.prefix ?? []) pass(chunk);
    } catch (error) {
      fail(error);
      return running;
    }
    source.once('end', onEnd);
    source.on('data', onData);
    // A source paused by a whole read before (read-whole-reply.ts) goes on unless `out` is full.
    if (!waitingDrain && source.isPaused()) source.resume();
    return running;
  };
  return {
    writeTo,
    outcome,
    clientClosed: () => {
      finish('client-closed');
      if (out === null && !source.destroyed) source.destroy();
    },
    delivered: () => sink.result(),
  };
}
