/**
 * Copies the listed fields of `source` that are neither null nor undefined.
 * Used for parameters that keep their name and value across two protocols.
 */
export function pickDefined<T extends object, K extends keyof T>(
  source: T,
  fields: readonly K[],
): { [P in K]?: NonNullable<T[P]> } {
  const picked: { [P in K]?: NonNullable<T[P]> } = {};
  for (const field of fields) {
    const value = source[field];
    if (value !== null && value !== undefined) picked[field] = value;
  }
  return picked;
}

/** `{ [key]: value }` when value is present, else `{}`; spread it into an object literal. */
export function definedEntry<K extends string, V>(
  key: K,
  value: V | null | undefined,
): { [P in K]?: V } {
  if (value === null || value === undefined) return {};
  return { [key]: value } as { [P in K]?: V };
}
