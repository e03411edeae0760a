/**
 * What one upstream attempt came to, and what the pool does about it (pure; docs/upstream-pools.md):
 * connect failures, connect / header timeouts, 5xx, 429 and 529 fail over to the next upstream
 * before anything reached the caller; other 4xx are the caller's answer. So does a streamed reply
 * that sends no first event within the first-output timeout (`first_output_timeout`) or that ends
 * or breaks before it (`no_output`): its head was not passed on yet. 429 and 529 (and a 5xx that
 * names a reset time) cool the upstream down; other failures count towards its circuit. A served
 * stream that breaks is `stream_error`, or `stream_idle_timeout` when it went silent too long.
 */
import type { UpstreamFailureKind } from '../../store/upstream-health.js';

export const ATTEMPT_OUTCOMES = [
  'ok',
  'connect_error',
  'timeout',
  'status_429',
  'status_529',
  'status_5xx',
  'status_4xx',
  'stream_error',
  'first_output_timeout',
  'no_output',
  'stream_idle_timeout',
] as const;

export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'ETIMEDOUT']);

export function outcomeOfStatus(status: number): AttemptOutcome {
  if (status === 429) return 'status_429';
  if (status === 529) return 'status_529';
  if (status >= 500) return 'status_5xx';
  if (status >= 400) return 'status_4xx';
  return 'ok';
}

export function outcomeOfTransportError(error: unknown): AttemptOutcome {
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && TIMEOUT_CODES.has(code) ? 'timeout' : 'connect_error';
}

/** True when the request may go to the next upstream after this outcome (nothing was relayed). */
export function failsOver(outcome: AttemptOutcome): boolean {
  return (
    outcome !== 'ok' &&
    outcome !== 'status_4xx' &&
    outcome !== 'stream_error' &&
    outcome !== 'stream_idle_timeout'
  );
}

/** How the failure is reported to the shared health state; null when it is not the upstream's. */
export function failureKind(
  outcome: AttemptOutcome,
  resetAt: number | null,
): UpstreamFailureKind | null {
  switch (outcome) {
    case 'status_429':
      return 'rate-limited';
    case 'status_529':
      return 'overloaded';
    case 'status_5xx':
      return resetAt === null ? 'failed' : 'overloaded';
    case 'connect_error':
    case 'timeout':
    case 'first_output_timeout':
    case 'no_output':
      return 'failed';
    case 'ok':
    case 'status_4xx':
    case 'stream_error':
    case 'stream_idle_timeout':
      return null;
  }
}
