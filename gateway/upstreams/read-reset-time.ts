/**
 * When a rate-limited or overloaded upstream will take calls again, from what it sent (pure;
 * docs/upstream-pools.md): `retry-after` (seconds or an HTTP date) first; then the provider's own
 * reset headers: Anthropic `anthropic-ratelimit-*-reset` (RFC 3339 times) and OpenAI
 * `x-ratelimit-reset-requests` / `-tokens` (durations such as `6m0s`, `1.5s`, `20ms`), taking the
 * limits whose `remaining` is 0 (all of them when none says 0) and the latest of those; then
 * Google's `RetryInfo.retryDelay` (`"19s"`) in the error body. Null when nothing usable is there.
 */

export type HeaderValue = string | string[] | undefined;
export type ResponseHeaders = Readonly<Record<string, HeaderValue>>;

/** Resets further out than this are not believed (a misread value must not park an upstream). */
export const MAX_RESET_MS = 24 * 3600_000;

const ANTHROPIC_LIMITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;
const OPENAI_LIMITS = ['requests', 'tokens'] as const;

function first(value: HeaderValue): string | null {
  if (value === undefined) return null;
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? null : text.trim();
}

/** `retry-after`: delta seconds (fractions accepted) or an HTTP date; epoch ms. */
export function parseRetryAfter(value: string, now: number): number | null {
  if (/^\d+(\.\d+)?$/.test(value)) return now + Math.round(Number(value) * 1000);
  // An HTTP date always carries a time of day (RFC 9110: IMF-fixdate and the obsolete forms).
  if (!/[a-z]{3}/i.test(value) || !/\d{1,2}:\d{2}:\d{2}/.test(value)) return null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : date;
}

const DURATION_UNITS: Record<string, number> = {
  h: 3600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
};

/** A Go-style duration (`6m0s`, `1h2m3.5s`, `20ms`, `0.5s`) in ms; null when it is not one. */
export function parseDuration(value: string): number | null {
  const text = value.trim();
  if (!/^(\d+(\.\d+)?(h|ms|us|m|s))+$/.test(text)) return null;
  let total = 0;
  for (const match of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|m|s)/g)) {
    total += Number(match[1]) * (DURATION_UNITS[match[2] ?? ''] ?? 0);
  }
  return Math.round(total);
}

/** The latest reset among the exhausted limits (all limits when none reports 0 remaining). */
function latestReset(candidates: readonly { reset: number | null; exhausted: boolean }[]) {
  const known = candidates.filter(
    (candidate): candidate is { reset: number; exhausted: boolean } => candidate.reset !== null,
  );
  const exhausted = known.filter((candidate) => candidate.exhausted);
  const chosen = exhausted.length > 0 ? exhausted : known;
  if (chosen.length === 0) return null;
  return Math.max(...chosen.map((candidate) => candidate.reset));
}

function anthropicReset(headers: ResponseHeaders): number | null {
  return latestReset(
    ANTHROPIC_LIMITS.map((limit) => {
      const reset = first(headers[`anthropic-ratelimit-${limit}-reset`]);
      const date = reset === null ? Number.NaN : Date.parse(reset);
      return {
        reset: Number.isNaN(date) ? null : date,
        exhausted: first(headers[`anthropic-ratelimit-${limit}-remaining`]) === '0',
      };
    }),
  );
}

function openAiReset(headers: ResponseHeaders, now: number): number | null {
  return latestReset(
    OPENAI_LIMITS.map((limit) => {
      const reset = first(headers[`x-ratelimit-reset-${limit}`]);
      const duration = reset === null ? null : parseDuration(reset);
      return {
        reset: duration === null ? null : now + duration,
        exhausted: first(headers[`x-ratelimit-remaining-${limit}`]) === '0',
      };
    }),
  );
}

/** Google `{error:{details:[{"@type": "...RetryInfo", retryDelay: "19s"}]}}`. */
function googleRetryDelay(body: unknown, now: number): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const details = (body as { error?: { details?: unknown } }).error?.details;
  if (!Array.isArray(details)) return null;
  for (const detail of details as unknown[]) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { '@type': type, retryDelay } = detail as Record<string, unknown>;
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo')) continue;
    if (typeof retryDelay !== 'string') continue;
    const duration = parseDuration(retryDelay);
    if (duration !== null) return now + duration;
  }
  return null;
}

export interface ResetInput {
  headers: ResponseHeaders;
  /** The parsed error body; undefined when it was not JSON. */
  body: unknown;
  now: number;
}

export function readResetTime(input: ResetInput): number | null {
  const { headers, body, now } = input;
  const retryAfter = first(headers['retry-after']);
  const found =
    (retryAfter === null ? null : parseRetryAfter(retryAfter, now)) ??
    anthropicReset(headers) ??
    openAiReset(headers, now) ??
    googleRetryDelay(body, now);
  if (found === null) return null;
  return Math.min(Math.max(found, now), now + MAX_RESET_MS);
}
