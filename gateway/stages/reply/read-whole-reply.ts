/**
 * A success reply that is one JSON document (not a stream), read whole before the caller's reply
 * starts: metered once over the whole body (the same tap as a relay, framing `json`), translated
 * once when the route translates, and sent as one buffer with its length. No stream objects per
 * call: the body's chunks are collected from its `data` events. A body larger than `limitBytes`
 * (the meter's parse limit, so metering is the same as a relay's) goes on as a relay
 * (`relay-metered-reply.ts`) with what was read so far in front, so memory stays bounded.
 *
 * The meter's outcome resolves exactly once, as a relay's: at the end of the body, when the upstream
 * fails mid-body (`read` then rejects with the error: nothing was sent yet, so the caller gets an
 * error reply in its protocol), or when the client goes away (`read` rejects too).
 */
import type { Dispatcher } from 'undici';
import { createStreamTap } from '../../bytes/create-stream-tap.js';
import { createBodyUsageAccumulator } from '../../metering/create-body-usage-accumulator.js';
import type { UsageReport } from '../../spec/usage-report.js';
import type { ReplyTranslator, UsageReader } from '../../spec/protocol-adapter.js';
import {
  relayMeteredReply,
  type MeteredRelay,
  type MeteredReply,
  type RelayMeteredReplyOptions,
} from './relay-metered-reply.js';

export type WholeReplyRead =
  | { kind: 'whole'; body: Buffer }
  /** Too large to hold: relayed from here on (the caller's reply writes it: `relay.writeTo`). */
  | { kind: 'relay'; relay: MeteredRelay };

export interface WholeReplyReader {
  /** The meter's outcome (the relay's when the body turned out too large). */
  outcome: Promise<MeteredReply>;
  clientClosed(): void;
  read: Promise<WholeReplyRead>;
}

export interface ReadWholeReplyOptions {
  body: Dispatcher.ResponseData['body'];
  reader: UsageReader;
  translator: ReplyTranslator | null;
  limitBytes: number;
  /** For the relay a too-large body goes on as. */
  relay: Omit<RelayMeteredReplyOptions, 'body' | 'reader' | 'translator' | 'prefix'>;
}

export class ClientClosedError extends Error {
  constructor() {
    super('the client went away while the reply was read');
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function readWholeReply(options: ReadWholeReplyOptions): WholeReplyReader {
  const { body: source, translator, reader } = options;
  let resolveOutcome: (reply: MeteredReply | Promise<MeteredReply>) => void = () => undefined;
  const outcome = new Promise<MeteredReply>((settle) => {
    resolveOutcome = settle;
  });
  let ended = false;
  let relayed: MeteredRelay | null = null;
  let rejectRead: (error: unknown) => void = () => undefined;
  const chunks: Buffer[] = [];
  let size = 0;

  const meter = (whole: Buffer, end: MeteredReply['end']): void => {
    ended = true;
    const tap = createStreamTap<UsageReport>({
      framing: 'json',
      sink: createBodyUsageAccumulator(reader.body),
      maxEventBytes: options.limitBytes,
    });
    tap.write(whole);
    const tapped = tap.finish({ sourceEnded: end === 'ended' });
    resolveOutcome({
      report: tapped.result,
      end,
      bytes: size,
      overflowed: tapped.overflowed,
    });
  };

  const read = new Promise<WholeReplyRead>((resolve, reject) => {
    rejectRead = reject;
    const cleanup = (): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      chunks.push(chunk);
      if (size <= options.limitBytes) return;
      cleanup();
      source.pause();
      ended = true;
      relayed = relayMeteredReply({
        ...options.relay,
        body: source,
        reader,
        translator,
        prefix: chunks,
      });
      resolveOutcome(relayed.outcome);
      resolve({ kind: 'relay', relay: relayed });
    };
    const onEnd = (): void => {
      cleanup();
      if (ended) return;
      const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      meter(whole, 'ended');
      try {
        resolve({
          kind: 'whole',
          body:
            translator === null ? whole : Buffer.concat([translator.push(whole), translator.end()]),
        });
      } catch (error) {
        reject(asError(error));
      }
    };
    const onError = (error: unknown): void => {
      cleanup();
      if (ended) {
        reject(new ClientClosedError());
        return;
      }
      meter(Buffer.concat(chunks, size), 'upstream-failed');
      reject(asError(error));
    };
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
  });
  // Rejections are the caller's to handle; nothing else waits on them.
  read.catch(() => undefined);

  return {
    outcome,
    read,
    clientClosed: () => {
      if (relayed !== null) {
        relayed.clientClosed();
        return;
      }
      if (ended) return;
      meter(Buffer.concat(chunks, size), 'client-closed');
      rejectRead(new ClientClosedError());
      // Nobody will read the rest (the attempt's abort closes the connection too).
      if (!source.destroyed) source.destroy();
    },
  };
}
