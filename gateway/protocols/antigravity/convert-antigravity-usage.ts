/**
 * Antigravity usage (wire-formats.md 5.2, 5.3): every reply and stream chunk wraps a Gemini
 * `GenerateContentResponse` in `{response: {…}}`; usage is `response.usageMetadata` with Gemini
 * semantics (last snapshot wins, thoughts billed as output, no cache-write count). Error bodies are
 * Google-shaped and not wrapped.
 */
import {
  createGoogleResponseReader,
  GoogleStreamUsage,
} from '../google/convert-google-usage-metadata.js';
import { asRecord, type UsageAccumulator, type UsageReport } from '../../spec/usage-report.js';

function unwrap(payload: unknown): Record<string, unknown> | undefined {
  const envelope = asRecord(payload);
  if (envelope === undefined) return undefined;
  return asRecord(envelope.response) ?? envelope;
}

/** A non-streamed Antigravity reply (or an error body). */
export function extractAntigravityUsage(body: unknown): UsageReport {
  const reader = createGoogleResponseReader();
  reader.read(unwrap(body) ?? {});
  return { ...reader.result(), complete: true, provisional: false };
}

export function createAntigravityUsageAccumulator(): UsageAccumulator {
  return new GoogleStreamUsage({ envelope: true }, unwrap);
}
