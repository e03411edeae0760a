/**
 * Captured bodies (docs/captures.md): what the gateway hands to the store for a call whose key or
 * group asks for capture, and what the recorder drains into the ledger. The bodies are redacted
 * and cut before they reach the store; the store holds them only in a bounded hand-off queue
 * (Redis: one stream trimmed to a bound; memory: a bounded queue persisted with the state).
 */

/** A key's or group's effective capture settings (absent from its policy when capture is off). */
export interface CaptureSettings {
  /** Capture the body the caller sent. */
  requests: boolean;
  /** Capture the reply the caller received (a stream as the reassembled message). */
  responses: boolean;
  /** Each body is cut to this many UTF-8 bytes (after redaction). */
  maxBytes: number;
  /** The ledger keeps the capture this many days. */
  retentionDays: number;
}

/** One kind of secret replaced in a body, and how many times (`[REDACTED:<kind>]` in the text). */
export interface Redaction {
  /** `anthropic-key`, `openai-key`, `google-api-key`, `aws-access-key`, `bearer-token`, ... */
  kind: string;
  count: number;
}

export interface CapturedBody {
  /** UTF-8 text, redacted, cut to `maxBytes` (never inside a character). */
  text: string;
  /** Size in bytes before cutting (after redaction). */
  bytes: number;
  /** True when `text` was cut. */
  truncated: boolean;
  /** `application/json` for every model-API body (a stream is stored as the reassembled message). */
  contentType: string;
  /** What was redacted, one entry per kind; empty when nothing was. */
  redactions: Redaction[];
}

export interface CapturedCall {
  requestId: string;
  namespace: string;
  keyName: string;
  keyUid: string;
  group: string;
  platform: string;
  /** The request path (without the query string, which may hold a key). */
  path: string;
  model: string | null;
  streamed: boolean;
  /** Request start, epoch ms. */
  at: number;
  /** `at` plus the retention days: the ledger drops the capture after this. */
  expiresAt: number;
  /** Null when requests are not captured. */
  request: CapturedBody | null;
  /** Null when responses are not captured or the call had no reply body. */
  response: CapturedBody | null;
}

/** A capture waiting in the hand-off queue, with the id `ackCaptures` takes. */
export interface PendingCapture {
  id: string;
  call: CapturedCall;
}

/** What one hand-off did to the queue. */
export interface CaptureHandOffResult {
  /**
   * Older captures dropped to keep the queue within its bound (counted by the gateway). On Redis
   * the trim is approximate (whole stream nodes), so drops come in batches.
   */
  dropped: number;
}

/** The default bound of the hand-off queue (captures waiting for the recorder). */
export const DEFAULT_CAPTURE_QUEUE_LIMIT = 10_000;

/** The default byte bound of the hand-off queue (the captures' JSON). */
export const DEFAULT_CAPTURE_QUEUE_BYTES = 64 * 1024 * 1024;

/** The stream entry's field (Redis) holding the capture's JSON. */
export const CAPTURE_STREAM_FIELD = 'capture';

/** The JSON of a capture as the stores hold it. */
export function capturedCallJson(call: CapturedCall): string {
  return JSON.stringify(call);
}

/** Parses one stored capture; null for anything that is not one (left for `ackCaptures`). */
export function parseCapturedCall(body: string): CapturedCall | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const fields = value as { requestId?: unknown; namespace?: unknown; at?: unknown };
  if (typeof fields.requestId !== 'string' || typeof fields.namespace !== 'string') return null;
  if (typeof fields.at !== 'number') return null;
  return value as CapturedCall;
}
