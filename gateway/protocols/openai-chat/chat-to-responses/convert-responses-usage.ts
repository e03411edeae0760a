import { definedEntry } from '../../../spec/pick-defined.js';
import type { ResponsesUsage } from './responses-reply-schema.js';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/**
 * Responses usage -> Chat usage (wire-formats.md 3.4); both count cache and reasoning as subsets.
 */
export function convertResponsesUsage(usage: ResponsesUsage): ChatUsage {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens ?? usage.input_tokens + usage.output_tokens,
    prompt_tokens_details: {
      cached_tokens: usage.input_tokens_details?.cached_tokens ?? 0,
      ...definedEntry('cache_write_tokens', usage.input_tokens_details?.cache_write_tokens),
    },
    completion_tokens_details: {
      reasoning_tokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
    },
  };
}
