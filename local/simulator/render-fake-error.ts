/** Error replies in each platform's own shape (wire-formats.md 1.5, 2.5, 4.5). */
export type FakePlatform = 'anthropic' | 'openai' | 'google';

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const GOOGLE_STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  529: 'UNAVAILABLE',
};

const OPENAI_ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: 'invalid_value' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  429: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  529: { type: 'service_unavailable_error', code: 'server_is_overloaded' },
};

export function renderFakeError(platform: FakePlatform, status: number): unknown {
  const message = `fake provider error ${status}`;
  switch (platform) {
    case 'anthropic':
      return {
        type: 'error',
        error: { type: ANTHROPIC_TYPES[status] ?? 'api_error', message },
        request_id: 'req_fake',
      };
    case 'openai': {
      const known = OPENAI_ERRORS[status] ?? { type: 'server_error', code: null };
      return { error: { message, type: known.type, param: null, code: known.code } };
    }
    case 'google':
      return { error: { code: status, message, status: GOOGLE_STATUSES[status] ?? 'INTERNAL' } };
  }
}

/** Google has no 529; the fake answers 503 there, and OpenAI gets 503 too. */
export function platformStatus(platform: FakePlatform, status: number): number {
  return status === 529 && platform !== 'anthropic' ? 503 : status;
}
