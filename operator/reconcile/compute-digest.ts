/** The `digest` of a policy document: SHA-256 of its canonical JSON (sorted keys), digest excluded. */
import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, canonical(item)]));
  }
  return value;
}

export function computeDigest(content: object): string {
  const text = JSON.stringify(canonical(content));
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Adds the digest to a document built without one. */
export function withDigest<T extends object>(content: T): T & { digest: string } {
  return { ...content, digest: computeDigest(content) };
}
