/**
 * The output cap an Anthropic Messages request puts on the upstream: `max_tokens`, which the API
 * requires as a positive integer. The same value goes to Anthropic untouched and becomes
 * `generationConfig.maxOutputTokens` in the Antigravity envelope, and admission reserves for it.
 * Null when the field is missing or not a positive integer (the upstream, or the translator,
 * then refuses the request; a reservation assumes no cap).
 */
export function readMessagesOutputCap(json: unknown): number | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const value = (json as { max_tokens?: unknown }).max_tokens;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}
