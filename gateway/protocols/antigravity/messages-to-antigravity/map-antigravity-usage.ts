import type { GeminiUsage } from './antigravity-reply-schema.js';

export interface AnthropicUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/**
 * Gemini usage semantics -> Anthropic semantics (wire-formats.md 5.4): Anthropic input excludes
 * cache reads, Gemini output excludes thoughts; Antigravity reports no cache writes.
 */
export function mapAntigravityUsage(usage: GeminiUsage | null | undefined): AnthropicUsage {
  const prompt = usage?.promptTokenCount ?? 0;
  const cached = usage?.cachedContentTokenCount ?? 0;
  return {
    input_tokens: Math.max(0, prompt - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
  };
}
