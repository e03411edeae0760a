/**
 * Gemini generateContent usage (wire-formats.md 4.3, 4.4): the last `usageMetadata` wins; the
 * normalisation itself is shared with Antigravity (`metering/convert-google-usage-metadata.ts`).
 * Works for SSE chunks (`alt=sse`) and for elements of the streamed JSON array alike.
 */
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import {
  convertGoogleUsageMetadata,
  createGoogleResponseReader,
} from '../../metering/convert-google-usage-metadata.js';
import { asRecord, type UsageAccumulator, type UsageReport } from '../../metering/usage-report.js';

export function convertGeminiGenerateContentUsage(metadata: unknown): {
  usage: UsageBuckets;
  flags: string[];
} {
  return convertGoogleUsageMetadata(metadata);
}

/** A non-streamed `GenerateContentResponse` (or an error body). */
export function extractGeminiGenerateContentUsage(body: unknown): UsageReport {
  const reader = createGoogleResponseReader();
  reader.read(asRecord(body) ?? {});
  return { ...reader.result(), complete: true, provisional: false };
}

/** A class, not closures: one is made per stream. */
class GeminiStreamUsage implements UsageAccumulator {
  private readonly reader = createGoogleResponseReader();

  feed(payload: unknown): void {
    const chunk = asRecord(payload);
    if (chunk !== undefined) this.reader.read(chunk);
  }

  feedBytes(bytes: Uint8Array, start: number, end: number): boolean {
    return this.reader.readBytes(bytes, start, end);
  }

  feedBytesPrefix(bytes: Uint8Array, start: number, end: number): number {
    return this.reader.readBytesPrefix(bytes, start, end);
  }

  result(): UsageReport {
    return this.reader.result();
  }
}

export function createGeminiGenerateContentUsageAccumulator(): UsageAccumulator {
  return new GeminiStreamUsage();
}
