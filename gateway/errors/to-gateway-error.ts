/** Any thrown value as a GatewayError: store outages 503, fastify body errors 4xx, the rest 500. */
import { StoreUnavailableError } from '../store/store.js';
import { GatewayError } from './gateway-error.js';

function fastifyStatus(error: unknown): { code: string; statusCode: number } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof code !== 'string' || typeof statusCode !== 'number') return null;
  return { code, statusCode };
}

export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.is(error)) return error;
  if (StoreUnavailableError.is(error)) {
    return new GatewayError('TG_STORE_UNAVAILABLE', { cause: error });
  }
  const fastify = fastifyStatus(error);
  if (fastify?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new GatewayError('TG_BODY_TOO_LARGE', { cause: error });
  }
  if (fastify !== null && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    return new GatewayError('TG_BAD_REQUEST', { cause: error });
  }
  return new GatewayError('TG_INTERNAL', { cause: error });
}
