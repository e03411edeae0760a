export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/** `incomplete_details.reason` -> Chat `finish_reason` (wire-formats.md 3.4). */
const incompleteReasons: Readonly<Record<string, ChatFinishReason>> = {
  max_output_tokens: 'length',
  content_filter: 'content_filter',
};

/**
 * Responses `status` (+ incomplete reason, + whether a function call was produced) -> Chat
 * `finish_reason`; undefined for `failed` / `cancelled`, which become errors instead.
 */
export function mapResponsesFinishReason(outcome: {
  status: string;
  incompleteReason?: string | null | undefined;
  sawFunctionCall: boolean;
}): ChatFinishReason | undefined {
  switch (outcome.status) {
    case 'failed':
    case 'cancelled':
      return undefined;
    case 'incomplete':
      return incompleteReasons[outcome.incompleteReason ?? ''] ?? 'length';
    default:
      return outcome.sawFunctionCall ? 'tool_calls' : 'stop';
  }
}
