/** Any thrown value as a GatewayError: store outages 503, fastify request errors 4xx, the rest 500. */
import { StoreUnavailableError } from '../../store/store.js';
import type { ErrorCode } from './error-catalogue.js';
import { GatewayError } from './gateway-error.js';

function fastifyStatus(error: unknown): { code: string; statusCode: number } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof code !== 'string' || typeof statusCode !== 'number') return null;
  return { code, statusCode };
}

/** Fastify's own request errors, each with the catalogue code and what went wrong. */
const fastifyCodes: Record<string, { code: ErrorCode; detail?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'TG_BODY_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'TG_UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'TG_MALFORMED_REQUEST',
    detail: 'The body length does not match Content-Length.',
  },
  FST_ERR_BAD_URL: {
    code: 'TG_MALFORMED_REQUEST',
    detail: 'The URL is not valid (malformed percent-encoding).',
  },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'TG_URL_TOO_LONG' },
};

export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.is(error)) return error;
  if (StoreUnavailableError.is(error)) {
    return new GatewayError('TG_STORE_UNAVAILABLE', { cause: error });
  }
  const fastify = fastifyStatus(error);
  const known = fastify === null ? undefined : fastifyCodes[fastify.code];
  if (known !== undefined) {
    return new GatewayError(known.code, {
      cause: error,
      ...(known.detail === undefined ? {} : { detail: known.detail }),
    });
  }
  if (fastify !== null && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    return new GatewayError('TG_BAD_REQUEST', { cause: error });
  }
  return new GatewayError('TG_INTERNAL', { cause: error });
}
