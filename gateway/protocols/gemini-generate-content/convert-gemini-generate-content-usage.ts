/**
 * Gemini generateContent usage (wire-formats.md 4.3, 4.4): the last `usageMetadata` wins; the
 * normalisation itself is shared with Antigravity (`metering/convert-google-usage-metadata.ts`).
 * Works for SSE chunks (`alt=sse`) and for elements of the streamed JSON array alike.
 */
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import {
  convertGoogleUsageMetadata,
  createGoogleResponseReader,
  GoogleStreamUsage,
} from '../google/convert-google-usage-metadata.js';
import { asRecord, type UsageAccumulator, type UsageReport } from '../../spec/usage-report.js';

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

export function createGeminiGenerateContentUsageAccumulator(): UsageAccumulator {
  return new GoogleStreamUsage({}, asRecord);
}
