/** Pure key extraction: the first present source, in the order the route lists them. */
import type { KeySource } from '../request/route-profile.js';

export interface KeyCarrier {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
}

function single(value: unknown): string | null {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first !== 'string') return null;
  const trimmed = first.trim();
  return trimmed === '' ? null : trimmed;
}

function fromSource(carrier: KeyCarrier, source: KeySource): string | null {
  switch (source) {
    case 'x-api-key':
      return single(carrier.headers['x-api-key']);
    case 'x-goog-api-key':
      return single(carrier.headers['x-goog-api-key']);
    case 'query-key':
      return single(carrier.query.key);
    case 'bearer': {
      const header = single(carrier.headers.authorization);
      const match = header === null ? null : /^Bearer\s+(\S+)$/i.exec(header);
      return match?.[1] ?? null;
    }
  }
}

export function extractKey(carrier: KeyCarrier, sources: readonly KeySource[]): string | null {
  for (const source of sources) {
    const value = fromSource(carrier, source);
    if (value !== null) return value;
  }
  return null;
}
