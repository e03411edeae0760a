/**
 * The output cap an OpenAI Responses request puts on the upstream: `max_output_tokens` (reasoning
 * included). Null when it is absent, or present but not a positive integer (the upstream refuses
 * such a request; a reservation assumes no cap): the model's own maximum then applies.
 */
export function readResponsesOutputCap(json: unknown): number | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const value = (json as { max_output_tokens?: unknown }).max_output_tokens;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}
