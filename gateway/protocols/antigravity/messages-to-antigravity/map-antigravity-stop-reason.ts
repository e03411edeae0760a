export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'refusal';

/** Gemini `finishReason` values with a specific Anthropic meaning; all others end the turn. */
const finishReasons: Readonly<Record<string, AnthropicStopReason>> = {
  MAX_TOKENS: 'max_tokens',
};

/** A tool call wins over any finish reason (Gemini ends tool calls with STOP). */
export function mapAntigravityStopReason(outcome: {
  finishReason: string | null | undefined;
  sawFunctionCall: boolean;
  promptBlocked: boolean;
}): AnthropicStopReason {
  if (outcome.promptBlocked) return 'refusal';
  if (outcome.sawFunctionCall) return 'tool_use';
  return finishReasons[outcome.finishReason ?? ''] ?? 'end_turn';
}
