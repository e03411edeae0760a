/**
 * Makes the metering tap of one reply (STYLE.md 8): the framing's codec picked by name from
 * `framing-codecs.ts` (SSE events, JSON array elements, one JSON document), each a subclass of the
 * shared tap (`stream-tap.ts`). The relay (`stages/reply/relay-metered-reply.ts`) writes each chunk
 * as it passes and finishes the tap once.
 */
import { FRAMING_CODECS, type StreamFraming } from './framing-codecs.js';
import type { StreamTap, TapSettings } from './stream-tap.js';

export type { StreamFraming } from './framing-codecs.js';
export type { PayloadSink, StreamTap, TapOutcome } from './stream-tap.js';
export {
  sharesFraming,
  type EventObserver,
  type FramingSharer,
  type SharedFraming,
} from './share-sse-framing.js';

export interface StreamTapOptions<R> extends TapSettings<R> {
  framing: StreamFraming;
}

export function createStreamTap<R>(options: StreamTapOptions<R>): StreamTap<R> {
  return FRAMING_CODECS[options.framing].createTap(options);
}
