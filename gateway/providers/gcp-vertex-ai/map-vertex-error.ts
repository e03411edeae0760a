/**
 * Vertex AI error replies in the caller's error shape (pure). Vertex answers its own refusals
 * (quota, permissions, unknown model, bad location) in Google's shape
 * `{"error":{"code","message","status","details"}}`, and a streamed call's refusal sometimes as a
 * one-element array of it; the model's own refusals on `publishers/anthropic` keep Anthropic's
 * shape. So: on the Gemini platform Google's shape is the platform's (an array is unwrapped); on
 * the Anthropic platform Google's shape becomes `{"type":"error","error":{"type","message"}}` with
 * the type Anthropic gives the status (429 RESOURCE_EXHAUSTED: `rate_limit_error`). The status is
 * kept, so the pool's classification (429 cools the upstream down) is as for a first-party reply;
 * Google's `RetryInfo.retryDelay` is handed on as the seconds to wait.
 */
export interface VertexErrorReply {
  status: number;
  bytes: Buffer;
}

export interface MappedError {
  status: number;
  bytes: Buffer;
  retryAfterSeconds?: number;
}

interface GoogleError {
  code?: unknown;
  message?: unknown;
  status?: unknown;
  details?: unknown;
}

const anthropicTypeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

function anthropicType(status: number): string {
  return anthropicTypeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function parse(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The Google error object of a body (`{error:{…}}` or `[{error:{…}}]`); null when it has none. */
function googleError(
  body: unknown,
): { inArray: boolean; single: object; error: GoogleError } | null {
  const inArray = Array.isArray(body) && body.length === 1;
  const single = inArray ? (body[0] as unknown) : body;
  if (typeof single !== 'object' || single === null) return null;
  const error = (single as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  if ((single as { type?: unknown }).type === 'error') return null;
  return { inArray, single, error };
}

/** Seconds from Google's `RetryInfo.retryDelay` (`"19s"`, `"1.5s"`); undefined when absent. */
export function readRetryDelaySeconds(error: GoogleError): number | undefined {
  if (!Array.isArray(error.details)) return undefined;
  for (const detail of error.details as unknown[]) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { '@type': type, retryDelay } = detail as Record<string, unknown>;
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo')) continue;
    const match = typeof retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(retryDelay) : null;
    if (match !== null) return Math.ceil(Number(match[1]));
  }
  return undefined;
}

function describe(error: GoogleError, status: number): string {
  const message = typeof error.message === 'string' ? error.message : 'no message';
  const name = typeof error.status === 'string' ? error.status : String(status);
  return `Vertex AI ${name}: ${message}`;
}

function withRetry(mapped: MappedError, seconds: number | undefined): MappedError {
  return seconds === undefined ? mapped : { ...mapped, retryAfterSeconds: seconds };
}

/** Null: the reply passes on as sent (already the platform's shape, or not one we know). */
export function mapVertexError(
  platform: 'Anthropic' | 'Gemini',
  reply: VertexErrorReply,
): MappedError | null {
  const found = googleError(parse(reply.bytes));
  if (found === null) return null;
  const retryAfter = readRetryDelaySeconds(found.error);
  if (platform === 'Gemini') {
    if (!found.inArray && retryAfter === undefined) return null;
    const bytes = found.inArray ? Buffer.from(JSON.stringify(found.single)) : reply.bytes;
    return withRetry({ status: reply.status, bytes }, retryAfter);
  }
  const body = {
    type: 'error',
    error: { type: anthropicType(reply.status), message: describe(found.error, reply.status) },
  };
  return withRetry({ status: reply.status, bytes: Buffer.from(JSON.stringify(body)) }, retryAfter);
}
