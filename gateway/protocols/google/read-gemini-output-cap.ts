/**
 * The output cap a Gemini `generateContent` body puts on the upstream: its generation config's
 * `maxOutputTokens`. Google parses request JSON as proto3 JSON, so the config and the field may
 * also be spelt `generation_config` / `max_output_tokens`, the value may be an integer string, and
 * 0 means "not set" (the model's own maximum applies). The Antigravity envelope carries the body
 * untouched as `request`, so the Gemini and Antigravity routes, and admission, all read the cap
 * here. Null when no spelling sets a cap, or when one that is present is not a positive integer
 * (0 or a value the upstream may ignore: the model's maximum may apply); when several spellings
 * set one, the largest counts.
 */
import { asRecord } from '../../spec/usage-report.js';

const CONFIG_FIELDS = ['generationConfig', 'generation_config'] as const;
const CAP_FIELDS = ['maxOutputTokens', 'max_output_tokens'] as const;

function positiveInteger(value: unknown): number | null {
  const number = typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : null;
}

/** How many candidates (`candidateCount`, any spelling) a body asks for; 1 when not set. */
export function readGeminiCandidateCount(json: unknown): number {
  const body = asRecord(json);
  let count = 1;
  for (const configField of CONFIG_FIELDS) {
    const config = asRecord(body?.[configField]);
    for (const field of ['candidateCount', 'candidate_count']) {
      count = Math.max(count, positiveInteger(config?.[field]) ?? 1);
    }
  }
  return count;
}

/** The cap of each candidate; see above. */
export function readGeminiOutputCap(json: unknown): number | null {
  const body = asRecord(json);
  const caps: (number | null)[] = [];
  for (const configField of CONFIG_FIELDS) {
    const config = asRecord(body?.[configField]);
    for (const capField of CAP_FIELDS) {
      const value = config?.[capField];
      if (value !== undefined && value !== null) caps.push(positiveInteger(value));
    }
  }
  if (caps.length === 0 || caps.includes(null)) return null;
  return Math.max(...(caps as number[]));
}
