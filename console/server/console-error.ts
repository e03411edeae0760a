/**
 * The console API's one error type and its wire shape `{ error: { code, message, field? } }`.
 * Codes are stable strings the web app can switch on; messages are for people.
 */
export const CONSOLE_ERROR_CODES = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  CSRF_REJECTED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID: 422,
  TOO_MANY_ATTEMPTS: 429,
  USAGE_UNAVAILABLE: 503,
  KUBERNETES_ERROR: 502,
  SIGN_IN_UNAVAILABLE: 503,
  SESSIONS_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ConsoleErrorCode = keyof typeof CONSOLE_ERROR_CODES;

const brand = Symbol.for('tollgate.console-error');

export class ConsoleError extends Error {
  readonly [brand] = true;
  readonly code: ConsoleErrorCode;
  readonly statusCode: number;
  readonly field: string | undefined;
  /** Seconds, for 429. */
  readonly retryAfter: number | undefined;

  constructor(
    code: ConsoleErrorCode,
    message: string,
    extra: { field?: string; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ConsoleError';
    this.code = code;
    this.statusCode = CONSOLE_ERROR_CODES[code];
    this.field = extra.field;
    this.retryAfter = extra.retryAfter;
  }
}

export function isConsoleError(value: unknown): value is ConsoleError {
  return typeof value === 'object' && value !== null && brand in value;
}

export interface ConsoleErrorBody {
  error: { code: ConsoleErrorCode; message: string; field?: string };
}

export function toErrorBody(error: ConsoleError): ConsoleErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
    },
  };
}
