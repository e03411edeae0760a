/**
 * Where each platform's clients point, relative to the gateway's public URL, and the models the
 * generated configuration names when the caller gives none. Pure.
 *
 * Anthropic clients take the root (no `/v1`), OpenAI clients `/v1`, GenAI clients the root (no
 * `/v1beta`); Antigravity keys call the same shapes under `/antigravity` (CLIENTS.md §1, §5).
 */
import type { Platform } from '../../../crds/schema/resources.js';
import type { ModelDefaults } from './client-config-types.js';

export interface PlatformEndpoints {
  /** Root of the platform's paths: the gateway URL, plus `/antigravity` for Antigravity. */
  root: string;
  usageUrl: string;
  /** The model list a key of this platform may read, and the header carrying the key. */
  modelList: { url: string; header: 'Authorization: Bearer' | 'x-goog-api-key' };
}

export const DEFAULT_MODELS: Record<Platform, ModelDefaults> = {
  Anthropic: {
    main: 'claude-sonnet-4-6',
    haiku: 'claude-haiku-4-5',
    sonnet: 'claude-sonnet-4-6',
    opus: 'claude-opus-4-6',
  },
  OpenAI: { main: 'gpt-5.5' },
  Gemini: { main: 'gemini-2.5-flash' },
  Antigravity: {
    main: 'claude-sonnet-4-6',
    sonnet: 'claude-sonnet-4-6',
    opus: 'claude-opus-4-6-thinking',
  },
};

/** The Antigravity model the Gemini CLI and the GenAI SDK name by default. */
export const ANTIGRAVITY_GEMINI_MODEL = 'gemini-2.5-flash';

export function trimGatewayUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

export function resolvePlatformEndpoints(
  platform: Platform,
  gatewayUrl: string,
): PlatformEndpoints {
  const gateway = trimGatewayUrl(gatewayUrl);
  const root = platform === 'Antigravity' ? `${gateway}/antigravity` : gateway;
  const modelList: PlatformEndpoints['modelList'] =
    platform === 'Gemini'
      ? { url: `${root}/v1beta/models`, header: 'x-goog-api-key' }
      : { url: `${root}/v1/models`, header: 'Authorization: Bearer' };
  return { root, usageUrl: `${root}/v1/usage`, modelList };
}

export function resolveModels(platform: Platform, given: Partial<ModelDefaults> | undefined) {
  const defaults = DEFAULT_MODELS[platform];
  const models: ModelDefaults = { ...defaults };
  for (const [name, value] of Object.entries(given ?? {})) {
    if (typeof value === 'string' && value.trim() !== '') {
      models[name as keyof ModelDefaults] = value.trim();
    }
  }
  return models;
}
