/**
 * The error shape a request is answered in, decided here only: the route's own shape; on
 * `by-platform` routes the key's platform's once the key is known; otherwise (no route matched, a
 * `by-platform` route before its key, a request Node refused before any route) the shape guessed
 * from the path and headers.
 */
import type { Platform } from '../../../crds/schema/resources.js';
import type { ErrorShape } from '../../errors/error-view.js';
import type { RouteProfile } from './route-profile.js';

export interface ShapeHints {
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface ShapeInput {
  /** The matched route's profile; null when no route matched. */
  profile: RouteProfile | null;
  /** The authorized key's platform; null before the key checks passed. */
  keyPlatform: Platform | null;
  hints: ShapeHints;
}

/** Anthropic clients send `anthropic-version` or `x-api-key`; OpenAI clients send neither. */
function looksLikeAnthropicClient(headers: ShapeHints['headers']): boolean {
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
}

/** The error shape of a `by-platform` route once the key's platform is known. */
function shapeForPlatform(platform: Platform): ErrorShape {
  switch (platform) {
    case 'Anthropic':
      return 'anthropic';
    case 'OpenAI':
      return 'openai';
    case 'Gemini':
    case 'Antigravity':
      return 'google';
  }
}

/** The shape a caller most likely reads, from the path and headers alone. */
function guessErrorShape(hints: ShapeHints): ErrorShape {
  const path = hints.path.split('?')[0] ?? '';
  if (path.startsWith('/v1beta') || path.startsWith('/antigravity/v1beta')) return 'google';
  // Remote compaction under /antigravity is an OpenAI call (answered TG_COMPACTION_UNSUPPORTED).
  if (path.startsWith('/antigravity/v1/responses')) return 'openai';
  if (path.startsWith('/v1/messages') || path.startsWith('/antigravity/v1/')) return 'anthropic';
  if (path.startsWith('/v1/responses') || path.startsWith('/v1/chat')) return 'openai';
  if (path === '/antigravity/models') return 'openai';
  if (path.startsWith('/antigravity')) return 'google';
  return looksLikeAnthropicClient(hints.headers) ? 'anthropic' : 'openai';
}

export function decideErrorShape(input: ShapeInput): ErrorShape {
  const declared = input.profile?.errorShape;
  if (declared !== undefined && declared !== 'by-platform') return declared;
  if (declared === 'by-platform' && input.keyPlatform !== null) {
    return shapeForPlatform(input.keyPlatform);
  }
  return guessErrorShape(input.hints);
}
