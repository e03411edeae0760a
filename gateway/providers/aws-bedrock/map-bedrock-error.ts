/**
 * Bedrock's errors in the Anthropic error shape (pure). A Bedrock error reply is `{"message": ...}`
 * with the exception named by the `x-amzn-errortype` header (`ThrottlingException:http://...`) or
 * a `__type` field; a stream's exception message names it in `:exception-type`
 * (`throttlingException`). The status chosen is what the pool acts on: 429 cools the upstream
 * down as rate limited, 529 as overloaded, other 5xx fail over, 4xx are the caller's answer.
 * Credential and permission refusals (unknown key, bad signature, expired token, access denied)
 * stay 403, which the forward stage answers as `TG_UPSTREAM_AUTH_FAILED` and flags on the
 * Upstream, forgetting cached credentials.
 */
export interface MappedBedrockError {
  status: number;
  anthropicType: string;
  exception: string;
  message: string;
}

const byException: Record<string, readonly [number, string]> = {
  ThrottlingException: [429, 'rate_limit_error'],
  ServiceQuotaExceededException: [429, 'rate_limit_error'],
  TooManyRequestsException: [429, 'rate_limit_error'],
  ServiceUnavailableException: [529, 'overloaded_error'],
  ModelNotReadyException: [529, 'overloaded_error'],
  InternalServerException: [500, 'api_error'],
  ModelErrorException: [500, 'api_error'],
  ModelStreamErrorException: [500, 'api_error'],
  ModelTimeoutException: [504, 'timeout_error'],
  ValidationException: [400, 'invalid_request_error'],
  SerializationException: [400, 'invalid_request_error'],
  AccessDeniedException: [403, 'permission_error'],
  ResourceNotFoundException: [404, 'not_found_error'],
  ConflictException: [409, 'invalid_request_error'],
  UnrecognizedClientException: [403, 'permission_error'],
  InvalidSignatureException: [403, 'permission_error'],
  ExpiredTokenException: [403, 'permission_error'],
  IncompleteSignatureException: [403, 'permission_error'],
  MissingAuthenticationTokenException: [403, 'permission_error'],
};

const byStatus: Record<number, readonly [number, string]> = {
  400: [400, 'invalid_request_error'],
  403: [403, 'permission_error'],
  404: [404, 'not_found_error'],
  408: [504, 'timeout_error'],
  413: [413, 'request_too_large'],
  424: [500, 'api_error'],
  429: [429, 'rate_limit_error'],
  503: [529, 'overloaded_error'],
};

/** `throttlingException` or `ThrottlingException:http://internal...` -> `ThrottlingException`. */
export function normaliseExceptionName(raw: string): string {
  const name = (raw.split(':')[0] ?? '').split('#').pop() ?? '';
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function readMessage(bytes: Buffer): { message: string | null; type: string | null } {
  try {
    const body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    const message = body.message ?? body.Message;
    return {
      message: typeof message === 'string' ? message : null,
      type: typeof body.__type === 'string' ? body.__type : null,
    };
  } catch {
    return { message: null, type: null };
  }
}

export function classifyBedrockError(input: {
  status: number;
  exception: string | null;
  bytes: Buffer;
}): MappedBedrockError {
  const read = readMessage(input.bytes);
  const exception = normaliseExceptionName(input.exception ?? read.type ?? '');
  const [status, anthropicType] = byException[exception] ??
    byStatus[input.status] ?? [
      input.status >= 500 ? 502 : input.status,
      input.status >= 500 ? 'api_error' : 'invalid_request_error',
    ];
  const message = read.message ?? `AWS Bedrock answered ${String(input.status)}`;
  return { status, anthropicType, exception, message };
}

export function renderAnthropicErrorJson(error: MappedBedrockError): string {
  const prefix = error.exception === '' ? '' : `${error.exception}: `;
  return JSON.stringify({
    type: 'error',
    error: { type: error.anthropicType, message: `${prefix}${error.message}` },
  });
}

/** An error reply from Bedrock mapped to the Anthropic error reply the caller gets. */
export function mapBedrockError(reply: {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}): { status: number; bytes: Buffer; retryAfterSeconds?: number; exception: string } {
  const header = reply.headers['x-amzn-errortype'] ?? reply.headers['X-Amzn-ErrorType'] ?? null;
  const mapped = classifyBedrockError({
    status: reply.status,
    exception: header,
    bytes: reply.bytes,
  });
  const retryAfter = Number(reply.headers['retry-after']);
  return {
    status: mapped.status,
    bytes: Buffer.from(renderAnthropicErrorJson(mapped)),
    exception: mapped.exception,
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
  };
}
