/** The error shape a caller most likely reads, from the path and headers alone (before auth). */
import type { ErrorShape } from '../errors/error-view.js';

export interface ShapeHints {
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Anthropic clients send `anthropic-version` or `x-api-key`; OpenAI clients send neither. */
export function looksLikeAnthropicClient(headers: ShapeHints['headers']): boolean {
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
}

export function guessErrorShape(hints: ShapeHints): ErrorShape {
  const path = hints.path.split('?')[0] ?? '';
  if (path.startsWith('/v1beta') || path.startsWith('/antigravity/v1beta')) return 'google';
  if (path.startsWith('/v1/messages') || path.startsWith('/antigravity/v1/')) return 'anthropic';
  if (path.startsWith('/v1/responses') || path.startsWith('/v1/chat')) return 'openai';
  if (path === '/antigravity/models') return 'openai';
  if (path.startsWith('/antigravity')) return 'google';
  return looksLikeAnthropicClient(hints.headers) ? 'anthropic' : 'openai';
}
