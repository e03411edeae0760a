/**
 * Upstream failures in the caller's terms (pure): transport errors map to 502 / 504 by undici code
 * (a reply silent longer than its idle timeout, undici's body timeout, is `TG_UPSTREAM_IDLE_TIMEOUT`);
 * error statuses pass through when the body already has the caller's shape, except credential
 * refusals (the caller's key is fine, the gateway's is not) and unshaped 5xx / 429 bodies.
 */
import { GatewayError } from '../../errors/gateway-error.js';

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'ETIMEDOUT']);

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export function mapTransportError(error: unknown): GatewayError {
  if (GatewayError.is(error)) return error;
  const code = errorCode(error);
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new GatewayError('TG_UPSTREAM_IDLE_TIMEOUT', { cause: error });
  }
  if (code !== undefined && timeoutCodes.has(code)) {
    return new GatewayError('TG_UPSTREAM_TIMEOUT', { cause: error });
  }
  return new GatewayError('TG_UPSTREAM_UNREACHABLE', { cause: error });
}

export type UpstreamErrorDecision =
  | { kind: 'pass'; status: number; retryAfter: string | null }
  | { kind: 'render'; error: GatewayError; retryAfter: string | null };

export interface UpstreamErrorInput {
  status: number;
  retryAfter: string | null;
  /** The parsed error body, or undefined when it was not JSON. */
  body: unknown;
  /** True when `body` is an error body of the caller's protocol. */
  isCallerShape: (body: unknown) => boolean;
}

export function decideUpstreamError(input: UpstreamErrorInput): UpstreamErrorDecision {
  const shaped = input.body !== undefined && input.isCallerShape(input.body);
  const { retryAfter, status } = input;
  if (status === 401 || status === 403) {
    return { kind: 'render', error: new GatewayError('TG_UPSTREAM_AUTH_FAILED'), retryAfter: null };
  }
  if (shaped) return { kind: 'pass', status, retryAfter };
  if (status === 429) {
    return { kind: 'render', error: new GatewayError('TG_UPSTREAM_RATE_LIMITED'), retryAfter };
  }
  if (status >= 500) {
    return { kind: 'render', error: new GatewayError('TG_UPSTREAM_ERROR'), retryAfter };
  }
  return { kind: 'pass', status, retryAfter };
}
