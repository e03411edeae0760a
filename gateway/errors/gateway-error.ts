/** The one error class of the gateway: a stable catalogue code, its status, and what to do. */
import { ERROR_CATALOGUE, type CatalogueEntry, type ErrorCode } from './error-catalogue.js';

const gatewayErrorBrand = Symbol.for('tollgate.GatewayError');

export interface GatewayErrorOptions {
  /** Replaces the catalogue message (it should still tell the caller what to do). */
  message?: string;
  /** Added after the catalogue message. */
  detail?: string;
  cause?: unknown;
  /** Seconds, sent as `retry-after` (default: the catalogue's, for retryable refusals). */
  retryAfterSeconds?: number;
  /** The request field at fault, for protocols that name it (OpenAI `param`). */
  param?: string | null;
}

export class GatewayError extends Error {
  readonly [gatewayErrorBrand] = true;
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly param: string | null;

  constructor(code: ErrorCode, options: GatewayErrorOptions = {}) {
    const entry: CatalogueEntry = ERROR_CATALOGUE[code];
    const base = options.message ?? entry.message;
    super(options.detail === undefined ? base : `${base} ${options.detail}`, {
      cause: options.cause,
    });
    this.name = 'GatewayError';
    this.code = code;
    this.statusCode = entry.status;
    this.retryable = entry.retryable;
    this.retryAfterSeconds = options.retryAfterSeconds ?? entry.retryAfterSeconds;
    this.param = options.param ?? null;
  }

  static is(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && gatewayErrorBrand in value;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return GatewayError.is(value);
}
