/**
 * A cloud provider's error status in the platform's first-party error shape (`mapError`): the
 * status and body the caller and the pool see. The provider's throttling hint becomes a
 * `retry-after` header, so the pool's cool-down reads it as it reads a first-party one
 * (`upstreams/read-reset-time.ts`). Error replies only: never on a success's path.
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ProviderCall, UpstreamProvider } from '../../spec/upstream-provider.js';

type Headers = Dispatcher.ResponseData['headers'];

export interface ProviderErrorStatus {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

function plainHeaders(headers: Headers): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) plain[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return plain;
}

/** The reply as the provider sent it when the provider maps nothing. */
export function mapProviderError(
  provider: UpstreamProvider,
  call: ProviderCall,
  reply: ProviderErrorStatus,
): ProviderErrorStatus {
  if (provider.mapError === undefined) return reply;
  const mapped = provider.mapError(call, {
    status: reply.status,
    headers: plainHeaders(reply.headers),
    bytes: reply.bytes,
  });
  if (mapped === null) return reply;
  const headers: Headers = { ...reply.headers, 'content-type': 'application/json' };
  delete headers['content-length'];
  if (mapped.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(Math.max(0, Math.ceil(mapped.retryAfterSeconds)));
  }
  return { status: mapped.status, headers, bytes: mapped.bytes };
}

/**
 * The provider's own answer to a call its upstream refused (`answerInstead`), as a 200 JSON reply
 * the reply stage reads like an upstream's (a body read as a Readable only); null when it has none.
 */
export function answerInsteadOfError(
  provider: UpstreamProvider,
  call: ProviderCall,
  reply: ProviderErrorStatus,
): Dispatcher.ResponseData | null {
  const bytes = provider.answerInstead?.(call, {
    status: reply.status,
    headers: plainHeaders(reply.headers),
    bytes: reply.bytes,
  });
  if (bytes === undefined || bytes === null) return null;
  return {
    statusCode: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    trailers: {},
    opaque: null,
    context: {},
    body: Readable.from([bytes]) as unknown as Dispatcher.ResponseData['body'],
  };
}
