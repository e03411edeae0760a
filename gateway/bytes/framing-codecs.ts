/**
 * The framing codecs the stream tap knows, by name: how an upstream frames its reply body. A new
 * framing is one codec file (a `StreamTapBase` subclass, `stream-tap.ts`) and one line here.
 */
import type { FramingCodec } from './stream-tap.js';
import { jsonArrayFramingCodec } from './json-array-framing-codec.js';
import { jsonDocumentFramingCodec } from './json-document-framing-codec.js';
import { sseFramingCodec } from './sse-framing-codec.js';

export const FRAMING_CODECS = {
  /** Server-sent events (`text/event-stream`). */
  sse: sseFramingCodec,
  /** A JSON array streamed element by element (Gemini without `alt=sse`). */
  'json-array': jsonArrayFramingCodec,
  /** One JSON document (a whole reply). */
  json: jsonDocumentFramingCodec,
} as const satisfies Record<string, FramingCodec>;

/** How the upstream frames its body: a name in `FRAMING_CODECS`. */
export type StreamFraming = keyof typeof FRAMING_CODECS;
