/** The request as the forward stage sees it: path, forwarded query, raw body and parsed JSON. */
import { GatewayError } from '../errors/gateway-error.js';
import type { ForwardContext } from './protocol-adapter.js';

/** The query string without the `key` parameter (a credential), untouched when it has none. */
export function forwardedQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  const params = new URLSearchParams(rawQuery);
  if (!params.has('key')) return rawQuery;
  params.delete('key');
  return params.toString();
}

export function readForwardContext(url: string, body: unknown): ForwardContext {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : forwardedQuery(url.slice(queryStart + 1));
  const bytes = Buffer.isBuffer(body) && body.length > 0 ? body : null;
  let json: unknown = undefined;
  if (bytes !== null) {
    try {
      json = JSON.parse(bytes.toString('utf8')) as unknown;
    } catch (error) {
      throw new GatewayError('TG_BAD_REQUEST', {
        detail: 'The body is not valid JSON.',
        cause: error,
      });
    }
  }
  return { path, query, body: bytes, json };
}
