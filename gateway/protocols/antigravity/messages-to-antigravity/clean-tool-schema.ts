/** Drops `$schema` everywhere in a JSON schema value (the upstream rejects it). */
function dropSchemaKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropSchemaKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '$schema')
      .map(([key, inner]) => [key, dropSchemaKeys(inner)]),
  );
}

/** An Anthropic `input_schema` -> Gemini `parameters`: no `$schema`, always an object with properties. */
export function cleanToolSchema(
  schema: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const cleaned = dropSchemaKeys(schema ?? {}) as Record<string, unknown>;
  const properties = cleaned['properties'];
  return {
    ...cleaned,
    type: 'object',
    properties: properties !== null && typeof properties === 'object' ? properties : {},
  };
}
