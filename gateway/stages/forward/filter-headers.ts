/**
 * Which headers cross the gateway in each direction (pure). Upstream: the caller's headers minus
 * credentials, hops and what the gateway recomputes. Downstream: an allow-list only (content-type,
 * the provider's request id and rate-limit headers), so an upstream can never set the gateway's
 * own headers (`x-tollgate-*`), CORS, cookies or anything else on the caller's response.
 */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/** Never forwarded upstream: caller credentials, host and length (recomputed), forwarding hops. */
const notForwardedUpstream = new Set([
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'cookie',
  'host',
  'content-length',
  // The gateway decodes a compressed request body and sends it upstream as is.
  'content-encoding',
  // Ask for identity encoding so the meter can read the bytes it passes through.
  'accept-encoding',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  // The in-process marker of a Responses WebSocket turn (upstreams/upstream-websockets.ts).
  'x-tollgate-websocket-connection',
]);

const forwardedDownstream = new Set([
  'content-type',
  'request-id',
  'x-request-id',
  'retry-after',
  'retry-after-ms',
]);
const forwardedDownstreamPrefixes = ['anthropic-ratelimit-', 'anthropic-priority-', 'x-ratelimit-'];

/** True for an upstream reply header the caller may see. */
export function isForwardedDownstream(name: string): boolean {
  const lower = name.toLowerCase();
  if (forwardedDownstream.has(lower)) return true;
  for (const prefix of forwardedDownstreamPrefixes) if (lower.startsWith(prefix)) return true;
  return false;
}

type HeaderValue = string | string[] | undefined;

const NO_TOKENS: ReadonlySet<string> = new Set();

/** The header names a `Connection` header names (hop-by-hop too); none for the usual values. */
function connectionTokens(headers: Record<string, HeaderValue>): ReadonlySet<string> {
  const value = headers.connection;
  // Most calls: no header, or one that names only a hop-by-hop header already dropped.
  if (value === undefined || value === 'keep-alive' || value === 'close') return NO_TOKENS;
  const text = Array.isArray(value) ? value.join(',') : value;
  return new Set(
    text
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
}

function filterHeaders(
  headers: Record<string, HeaderValue>,
  dropped: ReadonlySet<string>,
): Record<string, string | string[]> {
  const named = connectionTokens(headers);
  const result: Record<string, string | string[]> = {};
  // `for…in`, not `Object.entries`: no array per header. Header objects carry own names only.
  for (const name in headers) {
    const value = headers[name];
    const lower = name.toLowerCase();
    if (value === undefined || hopByHop.has(lower) || dropped.has(lower) || named.has(lower)) {
      continue;
    }
    result[lower] = value;
  }
  return result;
}

export function headersForUpstream(
  headers: Record<string, HeaderValue>,
): Record<string, string | string[]> {
  return filterHeaders(headers, notForwardedUpstream);
}

export function headersForClient(
  headers: Record<string, HeaderValue>,
): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && isForwardedDownstream(name)) result[name.toLowerCase()] = value;
  }
  return result;
}
