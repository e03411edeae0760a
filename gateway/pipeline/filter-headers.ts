/** Which headers cross the gateway in each direction (pure). */
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
  // Ask for identity encoding so the meter can read the bytes it passes through.
  'accept-encoding',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
]);

const notForwardedDownstream = new Set(['content-length', 'set-cookie', 'alt-svc']);

type HeaderValue = string | string[] | undefined;

function connectionTokens(headers: Record<string, HeaderValue>): Set<string> {
  const value = headers.connection;
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
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
  for (const [name, value] of Object.entries(headers)) {
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
  return filterHeaders(headers, notForwardedDownstream);
}
