/**
 * What usage extraction reports for one response, for every protocol: the normalised buckets (when
 * the upstream reported usage), invariant flags, the model the upstream named, how much text was
 * generated (for estimates), and whether the protocol's terminal event arrived.
 */
import type { UsageBuckets } from '../../store/usage-buckets.js';

export interface UsageReport {
  /** Buckets from the usage the upstream reported; null when none arrived. */
  usage: UsageBuckets | null;
  /** Invariant violations and notes found while normalising. */
  flags: string[];
  /** The model the upstream reported (e.g. a dated id); null when it named none. */
  model: string | null;
  /** Characters of generated text (and tool arguments) seen; the basis for estimates. */
  textChars: number;
  /** True when the protocol's terminal event (or the whole non-streamed body) arrived. */
  complete: boolean;
  /** True when the reported output count is provisional (the final usage never arrived). */
  provisional: boolean;
  /** The in-stream or body error type, when the upstream reported one. */
  error: string | null;
  /**
   * Why generation stopped, in the wire format's own words (`end_turn`, `stop`, `STOP`…), one per
   * generated choice or candidate; absent when the reply named none (an error, a cut stream).
   */
  finishReasons?: readonly string[];
}

/** A stream accumulator: feed every parsed event payload, read the report at any time. */
export interface UsageAccumulator {
  feed(payload: unknown): void;
  result(): UsageReport;
  /**
   * True for an SSE event name whose payload this accumulator never reads (no usage, text, model
   * or error in it): the tap then does not parse it. Events without a name are always parsed.
   */
  ignoresEvent?(name: string): boolean;
  /**
   * The fast path: takes a payload's UTF-8 bytes (valid only during the call) when it can read all
   * it needs from them without parsing (returns true), else returns false and the payload is
   * decoded, parsed and fed. Either way the report is the same.
   */
  feedBytes?(bytes: Uint8Array, start: number, end: number): boolean;
  /**
   * A JSON array element whose end is not known yet: it starts at `start` and ends anywhere before
   * `end`. When the reader can read it from its bytes, it does (as `feedBytes` of exactly its bytes
   * would) and returns where it ends, so the framing need not search for that; else -1, and the
   * framing finds the end and hands the element over as usual.
   */
  feedBytesPrefix?(bytes: Uint8Array, start: number, end: number): number;
}

export function emptyReport(): UsageReport {
  return {
    usage: null,
    flags: [],
    model: null,
    textChars: 0,
    complete: false,
    provisional: false,
    error: null,
  };
}

/** The report of a whole reply (a non-streamed body or a terminal stream event). */
export function completeReport(parts: {
  converted: { usage: UsageBuckets; flags: string[] } | null;
  model: string | null;
  textChars: number;
  error: string | null;
  finishReasons?: readonly string[];
}): UsageReport {
  const report: UsageReport = {
    usage: parts.converted?.usage ?? null,
    flags: parts.converted?.flags ?? [],
    model: parts.model,
    textChars: parts.textChars,
    complete: true,
    provisional: false,
    error: parts.error,
  };
  if (parts.finishReasons !== undefined && parts.finishReasons.length > 0) {
    report.finishReasons = parts.finishReasons;
  }
  return report;
}

/** Narrows an unknown JSON value to a plain object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * A token count from JSON: null and absent count as 0; any number is kept as it is (a huge,
 * negative or fractional one is repaired and flagged by `checkUsageInvariants`); anything else is
 * NaN, so the bucket is flagged `invalid-…` and billed as an estimate, never silently as 0.
 */
export function tokenCount(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' ? value : Number.NaN;
}

/** A string field, or null. */
export function stringField(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
