/** One catalogue entry. */
export interface CatalogueEntry {
  status: number;
  retryable: boolean;
  message: string;
  /** Sent as `retry-after` unless the refusal knows better (a window's reset time). */
  retryAfterSeconds?: number;
}

/**
 * Every Tollgate error code with its HTTP status and a message that tells the caller what to do.
 * The code is stable (clients and dashboards match on it); the message may improve over time.
 */
export const ERROR_CATALOGUE = {
  TG_KEY_MISSING: {
    status: 401,
    retryable: false,
    message: 'No API key was sent. Send your Tollgate key in the header this API expects.',
  },
  TG_KEY_UNKNOWN: {
    status: 401,
    retryable: false,
    message: 'The API key is not known to this gateway. Check the key value or ask for a new key.',
  },
  TG_KEY_INVALID: {
    status: 401,
    retryable: false,
    message: 'The API key cannot be used (its Secret is invalid, conflicting or duplicated).',
  },
  TG_KEY_NO_GROUP: {
    status: 403,
    retryable: false,
    message: 'The API key has no usable group. Ask an administrator to assign a group to the key.',
  },
  TG_PLATFORM_MISMATCH: {
    status: 403,
    retryable: false,
    message: "The key's group serves another platform.",
  },
  TG_KEY_SUSPENDED: {
    status: 403,
    retryable: false,
    message: 'The API key is suspended. Ask its owner to resume it.',
  },
  TG_KEY_EXPIRED: {
    status: 403,
    retryable: false,
    message: 'The API key has expired. Create a new key or extend its expiration time.',
  },
  TG_QUOTA_EXHAUSTED: {
    status: 429,
    retryable: false,
    message: "The key's spend quota is used up. Ask for a quota reset or a higher quota.",
  },
  TG_WINDOW_EXHAUSTED: {
    status: 429,
    retryable: true,
    message: "The key's spend limit for this window is used up. Retry after the window resets.",
  },
  TG_SOURCE_DENIED: {
    status: 403,
    retryable: false,
    message: "Request denied: the caller's IP address is not allowed for this key.",
  },
  TG_NO_ACCOUNT: {
    status: 403,
    retryable: false,
    message: "The key's namespace has no Account. Ask an administrator to create one.",
  },
  TG_MEMBER_BUDGET_EXHAUSTED: {
    status: 429,
    retryable: true,
    // Replaced by the window's reset on every refusal (admit-request.ts).
    retryAfterSeconds: 60,
    message:
      'Your member budget for this window (the spend of all your keys in this namespace) is used up. Retry after the window resets.',
  },
  TG_SUBSCRIPTION_EXHAUSTED: {
    status: 429,
    retryable: true,
    // Replaced by the window's reset on every refusal (admit-request.ts).
    retryAfterSeconds: 60,
    message:
      "The account's plan window is used up. Retry after the window resets, or ask for a larger plan.",
  },
  TG_SUBSCRIPTION_EXPIRED: {
    status: 403,
    retryable: false,
    message:
      "The account's subscription is not active (ended or not started) and the account has no balance left. Renew the subscription or add credit.",
  },
  TG_BALANCE_EXHAUSTED: {
    status: 429,
    retryable: false,
    message: "The account's balance is used up. Add credit to the account.",
  },
  TG_ACCOUNT_CONCURRENCY: {
    status: 429,
    retryable: true,
    retryAfterSeconds: 1,
    message: 'Too many concurrent requests for this account. Retry when one has finished.',
  },
  TG_KEY_CONCURRENCY: {
    status: 429,
    retryable: true,
    retryAfterSeconds: 1,
    message: 'Too many concurrent requests for this key. Retry when one has finished.',
  },
  TG_MODEL_DENIED: {
    status: 403,
    retryable: false,
    message: 'This model is not allowed for the key. Use one of the models listed by the gateway.',
  },
  TG_MODEL_NOT_PRICED: {
    status: 400,
    retryable: false,
    message:
      'The gateway has no price for this model, so it cannot bill it. Use another model, or ask an administrator to add a price (group pricing overrides or fallback).',
  },
  TG_MODEL_NOT_FOUND: {
    status: 404,
    retryable: false,
    message: 'The model is not available for this key.',
  },
  TG_BAD_REQUEST: {
    status: 400,
    retryable: false,
    message: 'The request body is not valid JSON or lacks a required field.',
  },
  TG_BODY_TOO_LARGE: {
    status: 413,
    retryable: false,
    message: 'The request body is too large.',
  },
  TG_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retryable: false,
    message:
      'The request body must be JSON (content-type: application/json), sent as is or with content-encoding gzip, deflate or br.',
  },
  TG_HEADERS_TOO_LARGE: {
    status: 431,
    retryable: false,
    message: 'The request headers or URL are too large. Send a shorter URL and smaller headers.',
  },
  TG_URL_TOO_LONG: {
    status: 414,
    retryable: false,
    message: 'A part of the request path is too long. Check the model name in the path.',
  },
  TG_MALFORMED_REQUEST: {
    status: 400,
    retryable: false,
    message: 'The request is not valid HTTP.',
  },
  TG_REQUEST_TIMEOUT: {
    status: 408,
    retryable: false,
    message: 'The request was not received in time. Send the headers and body without pausing.',
  },
  TG_METHOD_NOT_ALLOWED: {
    status: 405,
    retryable: false,
    message: 'This path does not accept this HTTP method. Generation endpoints take POST.',
  },
  TG_ROUTE_NOT_FOUND: {
    status: 404,
    retryable: false,
    message: 'No such route on this gateway. Check the base URL and path.',
  },
  TG_NOT_IMPLEMENTED: {
    status: 501,
    retryable: false,
    message: 'This endpoint is not available yet on this gateway.',
  },
  TG_WEBSOCKET_REQUIRED: {
    status: 426,
    retryable: false,
    message:
      'GET /v1/responses opens a WebSocket (Responses WebSocket mode): send Upgrade: websocket, or POST /v1/responses for HTTP.',
  },
  TG_WEBSOCKET_TURN_IN_FLIGHT: {
    status: 409,
    retryable: true,
    message:
      'A response is already in progress on this WebSocket. Wait for its response.completed, or open another connection.',
  },
  TG_WEBSOCKET_PREVIOUS_RESPONSE_NOT_FOUND: {
    status: 400,
    retryable: false,
    message:
      'previous_response_id is not the last response of this WebSocket connection. Send the full input without previous_response_id.',
  },
  TG_WEBSOCKET_MESSAGE_LIMIT: {
    status: 429,
    retryable: true,
    retryAfterSeconds: 1,
    message:
      'This WebSocket connection reached its message limit. Open a new connection to continue.',
  },
  TG_COMPACTION_UNSUPPORTED: {
    status: 501,
    retryable: false,
    message:
      "Remote compaction (POST /v1/responses/compact) is not available through this key's group: its upstream does not serve it, or the platform has no Responses API. Compact locally instead.",
  },
  TG_CLIENT_CLOSED: {
    status: 499,
    retryable: false,
    message: 'The client closed the request before the upstream answered.',
  },
  TG_NO_UPSTREAM: {
    status: 503,
    retryable: true,
    retryAfterSeconds: 30,
    message: "The key's group has no usable upstream. Ask an administrator to check the group.",
  },
  TG_UPSTREAM_BUSY: {
    status: 503,
    retryable: true,
    retryAfterSeconds: 1,
    message: 'Every upstream of the group is at its concurrency limit. Retry shortly.',
  },
  TG_UPSTREAM_RATE_LIMITED: {
    status: 429,
    retryable: true,
    retryAfterSeconds: 5,
    message: 'The upstream provider is rate limiting. Retry later.',
  },
  TG_UPSTREAMS_RATE_LIMITED: {
    status: 429,
    retryable: true,
    retryAfterSeconds: 5,
    message:
      "Every upstream of the key's group is rate limited or cooling down. Retry after the time in retry-after.",
  },
  TG_UPSTREAMS_UNAVAILABLE: {
    status: 503,
    retryable: true,
    retryAfterSeconds: 5,
    message:
      "Every upstream of the key's group is failing and paused. Retry after the time in retry-after.",
  },
  TG_UPSTREAM_AUTH_FAILED: {
    status: 502,
    retryable: false,
    message: 'The upstream provider refused the gateway credential. Ask an administrator.',
  },
  TG_UPSTREAM_ERROR: {
    status: 502,
    retryable: true,
    message: 'The upstream provider failed. Retry later.',
  },
  TG_UPSTREAM_UNREACHABLE: {
    status: 502,
    retryable: true,
    message: 'The upstream provider could not be reached. Retry later.',
  },
  TG_UPSTREAM_TIMEOUT: {
    status: 504,
    retryable: true,
    message: 'The upstream provider did not answer in time. Retry later.',
  },
  TG_UPSTREAM_FIRST_OUTPUT_TIMEOUT: {
    status: 504,
    retryable: true,
    message:
      "The upstream providers answered but sent no output within the group's first-output timeout. Retry later.",
  },
  TG_UPSTREAM_IDLE_TIMEOUT: {
    status: 504,
    retryable: true,
    message:
      "The upstream provider's reply went silent for longer than the stream idle timeout. Retry later.",
  },
  TG_STORE_UNAVAILABLE: {
    status: 503,
    retryable: true,
    retryAfterSeconds: 5,
    message: 'The gateway cannot reach its policy store. Retry shortly.',
  },
  TG_COUNTERS_RESTORING: {
    status: 503,
    retryable: true,
    retryAfterSeconds: 1,
    message:
      "The account's spend counters are being restored from the usage ledger after a store restart. Retry shortly.",
  },
  TG_POLICY_RESTORING: {
    status: 503,
    retryable: true,
    retryAfterSeconds: 1,
    message:
      "The gateway's policy cache is being reloaded after a store restart, and this key's policy is not back yet. Retry shortly.",
  },
  TG_SHUTTING_DOWN: {
    status: 503,
    retryable: true,
    retryAfterSeconds: 1,
    message: 'The gateway is shutting down. Retry; another instance will answer.',
  },
  TG_MODEL_NAME_INVALID: {
    status: 400,
    retryable: false,
    message:
      'The model name in the path is not valid. Use a model id such as gemini-2.5-flash: letters, digits, ".", "-", "_" and "@", starting with a letter or digit ("/", "%", ":", dot segments and control characters are refused).',
  },
  TG_INTERNAL: {
    status: 500,
    retryable: true,
    message: 'The gateway failed unexpectedly. Retry later.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
