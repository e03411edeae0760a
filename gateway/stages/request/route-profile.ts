/**
 * What the admission pipeline needs to know about a route: which key platforms may use it, where
 * its key comes from (DESIGN.md 5.2), which error shape its callers read, and whether it forwards.
 */
import type { Platform } from '../../../crds/schema/resources.js';
import type { ErrorShape } from '../../errors/error-view.js';

export type KeySource = 'x-api-key' | 'bearer' | 'x-goog-api-key' | 'query-key';

export interface RouteProfile {
  platforms: readonly Platform[];
  keySources: readonly KeySource[];
  /** `by-platform`: decided by the key's platform once known, by the headers before. */
  errorShape: ErrorShape | 'by-platform';
  /** Forwarded (admitted through `store.admit`) or answered by the gateway itself. */
  forwarded: boolean;
}

const messagesKeys: readonly KeySource[] = ['x-api-key', 'bearer'];
const responsesKeys: readonly KeySource[] = ['bearer'];
const geminiKeys: readonly KeySource[] = ['x-goog-api-key', 'query-key'];

export const ROUTE_PROFILES = {
  anthropicForward: {
    platforms: ['Anthropic'],
    keySources: messagesKeys,
    errorShape: 'anthropic',
    forwarded: true,
  },
  openaiForward: {
    platforms: ['OpenAI'],
    keySources: responsesKeys,
    errorShape: 'openai',
    forwarded: true,
  },
  /** `GET /v1/responses`: the WebSocket upgrade's key and IP checks; each turn is a forwarded call. */
  openaiWebsocket: {
    platforms: ['OpenAI'],
    keySources: responsesKeys,
    errorShape: 'openai',
    forwarded: false,
  },
  geminiForward: {
    platforms: ['Gemini'],
    keySources: geminiKeys,
    errorShape: 'google',
    forwarded: true,
  },
  geminiModels: {
    platforms: ['Gemini'],
    keySources: geminiKeys,
    errorShape: 'google',
    forwarded: false,
  },
  sharedModels: {
    platforms: ['Anthropic', 'OpenAI'],
    keySources: messagesKeys,
    errorShape: 'by-platform',
    forwarded: false,
  },
  antigravityMessages: {
    platforms: ['Antigravity'],
    keySources: messagesKeys,
    errorShape: 'anthropic',
    forwarded: false,
  },
  antigravityGemini: {
    platforms: ['Antigravity'],
    keySources: ['bearer', ...geminiKeys],
    errorShape: 'google',
    forwarded: false,
  },
  antigravityModels: {
    platforms: ['Antigravity'],
    keySources: messagesKeys,
    errorShape: 'openai',
    forwarded: false,
  },
} as const satisfies Record<string, RouteProfile>;

/** The path prefix a key of each platform should call. */
export const PLATFORM_PATH_PREFIX: Record<Platform, string> = {
  Anthropic: '/v1/messages',
  OpenAI: '/v1/responses',
  Gemini: '/v1beta/models',
  Antigravity: '/antigravity',
};
