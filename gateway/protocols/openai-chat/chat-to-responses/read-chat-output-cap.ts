/**
 * The output cap a Chat Completions request puts on the upstream, decided once for the translator
 * and for the admission reservation: `max_completion_tokens` first, then `max_tokens` (a null or
 * absent field is skipped, as `??` does), raised to the Responses minimum of 16. Null when the
 * caller sets neither: the model's own maximum then applies upstream.
 */

/** Responses rejects `max_output_tokens` below 16 (`integer_below_min_value`). */
export const minimumOutputTokens = 16;

export interface ChatOutputCapFields {
  max_completion_tokens?: unknown;
  max_tokens?: unknown;
}

const isGiven = (value: unknown): boolean => value !== undefined && value !== null;
const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/**
 * The `max_output_tokens` the translated Responses request carries; null = none. A field that is
 * given but not an integer also yields null (the translator refuses such a request; a reservation
 * then assumes no cap, the safe side).
 */
export function readChatOutputCap(fields: ChatOutputCapFields): number | null {
  const given = [fields.max_completion_tokens, fields.max_tokens].filter(isGiven);
  const requested = given[0];
  if (requested === undefined || !given.every(isInteger)) return null;
  return Math.max(minimumOutputTokens, requested as number);
}

/** How many answers (`n`) a Chat Completions request asks for; 1 when absent or not a count. */
export function readChatAnswerCount(fields: { n?: unknown }): number {
  return isInteger(fields.n) && fields.n > 1 ? fields.n : 1;
}

/**
 * The most one answer of a Chat Completions request can hold on either kind of upstream: the
 * translated cap, or, for an upstream that receives the body untouched (`chatCompletions: Native`)
 * and may honour either field, the larger of the two. Admission runs before the upstream is
 * chosen, so it reserves for this. Null when no field sets a cap.
 */
export function readChatOutputCapOnAnyUpstream(fields: ChatOutputCapFields): number | null {
  const translated = readChatOutputCap(fields);
  if (translated === null) return null;
  const native = [fields.max_completion_tokens, fields.max_tokens].filter(isInteger);
  return Math.max(translated, ...native);
}
