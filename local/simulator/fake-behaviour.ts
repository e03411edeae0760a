/**
 * What the fake provider does, set globally or per path: timing, stream shape, failures, and the
 * usage figures it reports. Every field is optional; per-path settings override global ones.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface FakeBehaviour {
  /** Wait before the status line and headers (slow headers). */
  firstByteDelayMs?: number;
  /** Wait between stream frames. */
  chunkGapMs?: number;
  /** Number of text deltas in a streamed answer (default 3; at least 1). */
  chunks?: number;
  /**
   * The answer's text instead of `FAKE_OK <model> part1 …`, split into `chunks` deltas of about
   * equal length (so a word may be split across frames).
   */
  text?: string;
  /** Destroy the connection after this many stream frames have been written. */
  dropAfterChunks?: number;
  /** Answer with this error status instead (429 carries `retry-after`; 529 is Anthropic's overload). */
  status?: 400 | 401 | 429 | 500 | 529;
  /** Seconds in `retry-after` on 429 (default 7). */
  retryAfterSeconds?: number;
  /** Leave usage out of replies and streams. */
  omitUsage?: boolean;
  /** End the stream with the platform's in-stream error event instead of its normal end (OpenAI
   * Responses: a whole reply comes back with `status: "failed"`). */
  streamError?: boolean;
  /** Usage figures reported on top of the counts derived from the request. */
  cacheReadTokens?: number;
  cacheWrite5mTokens?: number;
  cacheWrite1hTokens?: number;
  reasoningTokens?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, the fields of a form body, or the raw text when neither parses; null when empty. */
  body: unknown;
  rawBody: string;
}

export interface BehaviourRegistry {
  set(behaviour: FakeBehaviour, path?: string): void;
  resolve(path: string): FakeBehaviour;
  reset(): void;
}

export function createBehaviourRegistry(): BehaviourRegistry {
  let global: FakeBehaviour = {};
  const perPath = new Map<string, FakeBehaviour>();
  return {
    set(behaviour, path) {
      if (path === undefined) global = { ...behaviour };
      else perPath.set(path, { ...behaviour });
    },
    resolve(path) {
      return { ...global, ...(perPath.get(path) ?? {}) };
    },
    reset() {
      global = {};
      perPath.clear();
    },
  };
}
