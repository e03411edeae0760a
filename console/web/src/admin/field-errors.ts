/**
 * Where a server refusal is shown: next to the control whose field path is the longest prefix of
 * the error's `field` (`spec.rateMultiplier` → "Price multiplier"), else next to the action.
 */
export interface PlacedError {
  /** Message per control path. */
  byPath: Record<string, string>;
  /** The error no control claims (shown next to the action), or null. */
  rest: Error | null;
}

export function placeError(error: Error | null, paths: readonly string[]): PlacedError {
  if (error === null) return { byPath: {}, rest: null };
  const field = 'field' in error && typeof error.field === 'string' ? error.field : undefined;
  if (field === undefined) return { byPath: {}, rest: error };
  const owner = paths
    .filter((path) => field === path || field.startsWith(`${path}.`))
    .sort((a, b) => b.length - a.length)[0];
  if (owner === undefined) return { byPath: {}, rest: error };
  return { byPath: { [owner]: error.message }, rest: null };
}

/** A refusal found before sending, shaped like the server's. */
export function localError(problem: { field: string; message: string }): Error {
  return Object.assign(new Error(problem.message), { field: problem.field });
}
