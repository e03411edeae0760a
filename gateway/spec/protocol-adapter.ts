/**
 * What a pass-through protocol plugs into the shared forward stage: where the model is, how the
 * upstream request is built (model override applied), which header carries the credential, and
 * what its error bodies look like. Implementations live in `protocols/<name>/`.
 */
import type { ErrorView } from '../errors/error-view.js';
import type { UsageAccumulator, UsageReport } from './usage-report.js';
import type { ResolvedUpstream } from './resolved-upstream.js';

export interface ForwardContext {
  /** The request path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** The query string to forward (without `?`, the `key` parameter removed); '' for none. */
  query: string;
  /** The raw body bytes as received; null for none. */
  body: Buffer | null;
  /** The parsed JSON body; undefined when there is no body. */
  json: unknown;
}

export interface UpstreamRequestParts {
  /** Path relative to the upstream base URL, including the query string. */
  path: string;
  body: Buffer | null;
}

/**
 * The wire formats an upstream replies in, one per folder of `protocols/` (docs/wire-formats.md);
 * the meter picks its usage reader by it.
 */
export const UPSTREAM_WIRE_FORMATS = [
  'anthropic-messages',
  'openai-responses',
  'openai-chat',
  'gemini-generate-content',
  'antigravity',
] as const;

export type UpstreamWireFormat = (typeof UPSTREAM_WIRE_FORMATS)[number];

/** How the usage is read out of replies in one wire format (each protocol's `convert-…-usage`). */
export interface UsageReader {
  /** A fresh accumulator for a streamed reply, fed event by event (SSE or JSON array). */
  stream: () => UsageAccumulator;
  /** The usage of a whole JSON reply. */
  body: (json: unknown) => UsageReport;
}

/**
 * One usage reader per wire format: from the protocols registry (`protocols/registry.ts`, `USAGE_READERS`)
 * and handed to the forward stage, which picks the one `upstreamFormat` names.
 */
export type UsageReaders = Readonly<Record<UpstreamWireFormat, UsageReader>>;

/**
 * Translated routes only: turns upstream reply bytes into the caller's protocol, incrementally.
 * A non-streamed reply is pushed whole and the translation comes from `end()`.
 */
export interface ReplyTranslator {
  push(chunk: Buffer): Buffer;
  end(): Buffer;
  /**
   * Whole (non-streamed) replies: read after `end()`, the status the translated reply must carry
   * (for example a failed Responses reply becomes an error); null or absent = the upstream's.
   */
  status?(): number | null;
}

export interface RequestAdapter {
  /**
   * Optional: the adapter to use once the upstream is chosen, for protocols whose request or reply
   * depends on the upstream (Chat Completions translated or native, the Antigravity project). The
   * forward stage calls it right after picking the upstream and uses the result for every later
   * call; absent = this adapter serves every upstream.
   */
  forUpstream?(upstream: ResolvedUpstream): RequestAdapter;
  /**
   * The upstream's reply format for this request: the forward stage reads the usage from the
   * upstream bytes with that format's `UsageReader`.
   */
  upstreamFormat(context: ForwardContext): UpstreamWireFormat;
  /** Translated routes only; absent = the reply bytes pass through untouched. */
  translateReply?(
    context: ForwardContext,
    reply: { stream: boolean; status: number },
  ): ReplyTranslator;
  /**
   * The model the caller asked for; null when the request does not name one. Throws a
   * `GatewayError` when the name cannot be forwarded safely (a model carried in the path).
   */
  readModel(context: ForwardContext): string | null;
  /**
   * The output cap the upstream will be asked for (the same decision the request translation
   * uses, so reservation and upstream agree); null when the request sets none and the model's own
   * maximum applies. Admission reserves the output for it (docs/billing.md section 4).
   */
  readOutputCap(context: ForwardContext): number | null;
  /** True when the caller asked for a streamed reply. */
  isStream(context: ForwardContext): boolean;
  /** The upstream path and body; re-serialises only when `upstreamModel` differs. */
  buildUpstream(context: ForwardContext, upstreamModel: string | null): UpstreamRequestParts;
  /** Sets the upstream credential header on the outgoing headers. */
  applyCredential(headers: Record<string, string | string[]>, credential: string): void;
  /** True when an upstream error body is already in this protocol's error shape. */
  isErrorBody(body: unknown): boolean;
  /**
   * The bytes that tell a streaming caller the stream failed after its headers were sent, or null
   * when the reply format has no such event (then the connection is just closed).
   */
  streamError(context: ForwardContext, error: ErrorView): string | null;
}

/** Appends a query string to a path. */
export function withQuery(path: string, query: string): string {
  return query === '' ? path : `${path}?${query}`;
}

/** True when a JSON body asks for a streamed reply (`"stream": true`). */
export function asksForStream(context: ForwardContext): boolean {
  const json = context.json;
  return (
    typeof json === 'object' && json !== null && (json as { stream?: unknown }).stream === true
  );
}

/** Reads a top-level string field of a JSON object body. */
export function jsonStringField(json: unknown, field: string): string | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const value = (json as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
}

/** The JSON body with `model` replaced, or the untouched raw bytes when nothing changes. */
export function bodyWithModel(
  context: ForwardContext,
  upstreamModel: string | null,
): Buffer | null {
  if (upstreamModel === null || jsonStringField(context.json, 'model') === upstreamModel) {
    return context.body;
  }
  const json = { ...(context.json as Record<string, unknown>), model: upstreamModel };
  return Buffer.from(JSON.stringify(json), 'utf8');
}
