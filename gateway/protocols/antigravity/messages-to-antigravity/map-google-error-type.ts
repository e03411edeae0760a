/** Google RPC status -> Anthropic error type, for upstream errors rendered to a Messages client. */
const errorTypes: Readonly<Record<string, string>> = {
  INVALID_ARGUMENT: 'invalid_request_error',
  FAILED_PRECONDITION: 'invalid_request_error',
  UNAUTHENTICATED: 'authentication_error',
  PERMISSION_DENIED: 'permission_error',
  NOT_FOUND: 'not_found_error',
  RESOURCE_EXHAUSTED: 'rate_limit_error',
  UNAVAILABLE: 'overloaded_error',
  DEADLINE_EXCEEDED: 'timeout_error',
};

export function mapGoogleStatusToAnthropicType(status: string | null | undefined): string {
  return errorTypes[status ?? ''] ?? 'api_error';
}
