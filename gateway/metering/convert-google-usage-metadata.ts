/**
 * Gemini `usageMetadata` (also inside the Antigravity `response`) to buckets: the prompt count includes
 * cached tokens; thoughts are separate from candidates and billed as output; tool-use prompt tokens
 * are billed as input. Shared by the Gemini and Antigravity protocols. Checks `totalTokenCount`.
 */
import type { UsageBuckets } from '../../store/usage-buckets.js';
import { checkUsageInvariants, subtractCached } from './check-usage-invariants.js';
import { asRecord, stringField, tokenCount, type UsageReport } from './usage-report.js';
import { createTextAccumulator } from './accumulate-text.js';

export function convertGoogleUsageMetadata(metadata: unknown): {
  usage: UsageBuckets;
  flags: string[];
} {
  const fields = asRecord(metadata) ?? {};
  const flags: string[] = [];
  const prompt = tokenCount(fields.promptTokenCount);
  const cached = tokenCount(fields.cachedContentTokenCount);
  const candidates = tokenCount(fields.candidatesTokenCount);
  const thoughts = tokenCount(fields.thoughtsTokenCount);
  const toolUsePrompt = tokenCount(fields.toolUsePromptTokenCount);
  const checked = checkUsageInvariants({
    inputUncached: subtractCached({ total: prompt, cached, flags }) + toolUsePrompt,
    cacheRead: cached,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    output: candidates + thoughts,
    reasoning: thoughts,
  });
  const total = fields.totalTokenCount;
  if (typeof total === 'number' && total !== prompt + candidates + thoughts + toolUsePrompt) {
    flags.push('total-mismatch');
  }
  return { usage: checked.usage, flags: [...flags, ...checked.flags] };
}

/**
 * Reads one `GenerateContentResponse` (a stream chunk or a whole reply) into a report in progress:
 * the last `usageMetadata` wins (running snapshots, never summed); `finishReason` marks the end.
 */
export function createGoogleResponseReader(): {
  read(response: Record<string, unknown>): void;
  result(): UsageReport;
} {
  const text = createTextAccumulator();
  let metadata: unknown;
  let model: string | null = null;
  let finished = false;
  let error: string | null = null;
  return {
    read(response) {
      const failure = asRecord(response.error);
      if (failure !== undefined) {
        error =
          stringField(failure.status) ??
          (typeof failure.code === 'number' ? String(failure.code) : 'error');
      }
      if (response.usageMetadata !== undefined) metadata = response.usageMetadata;
      if (typeof response.modelVersion === 'string') model = response.modelVersion;
      const candidates = Array.isArray(response.candidates) ? response.candidates : [];
      for (const candidate of candidates) {
        const fields = asRecord(candidate);
        if (typeof fields?.finishReason === 'string') finished = true;
        const parts = asRecord(fields?.content)?.parts;
        for (const part of Array.isArray(parts) ? parts : []) {
          const partFields = asRecord(part);
          text.add(partFields?.text);
          const call = asRecord(partFields?.functionCall);
          if (call !== undefined) text.add(JSON.stringify(call.args ?? {}));
        }
      }
    },
    result() {
      const converted = metadata === undefined ? null : convertGoogleUsageMetadata(metadata);
      return {
        usage: converted?.usage ?? null,
        flags: converted?.flags ?? [],
        model,
        textChars: text.chars,
        complete: finished,
        provisional: converted !== null && !finished,
        error,
      };
    },
  };
}
