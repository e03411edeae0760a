/**
 * The models each platform is known to serve: what model lists show (filtered by the group's and
 * the key's allow globs). Keep this the one place that names models for listing.
 */
import type { Platform } from '../../crds/schema/resources.js';

export interface CatalogueModel {
  id: string;
  displayName: string;
  /** RFC 3339 release date. */
  createdAt: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
}

function model(
  id: string,
  displayName: string,
  details: { createdAt: string; input: number; output: number },
): CatalogueModel {
  return {
    id,
    displayName,
    createdAt: details.createdAt,
    inputTokenLimit: details.input,
    outputTokenLimit: details.output,
  };
}

const claude = {
  opus46: model('claude-opus-4-6', 'Claude Opus 4.6', {
    createdAt: '2026-02-05T00:00:00Z',
    input: 200_000,
    output: 128_000,
  }),
  sonnet46: model('claude-sonnet-4-6', 'Claude Sonnet 4.6', {
    createdAt: '2026-02-17T00:00:00Z',
    input: 200_000,
    output: 64_000,
  }),
  sonnet45: model('claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', {
    createdAt: '2025-09-29T00:00:00Z',
    input: 200_000,
    output: 64_000,
  }),
  haiku45: model('claude-haiku-4-5-20251001', 'Claude Haiku 4.5', {
    createdAt: '2025-10-01T00:00:00Z',
    input: 200_000,
    output: 64_000,
  }),
};

const gemini = {
  pro25: model('gemini-2.5-pro', 'Gemini 2.5 Pro', {
    createdAt: '2025-06-17T00:00:00Z',
    input: 1_048_576,
    output: 65_536,
  }),
  flash25: model('gemini-2.5-flash', 'Gemini 2.5 Flash', {
    createdAt: '2025-06-17T00:00:00Z',
    input: 1_048_576,
    output: 65_536,
  }),
  flashLite25: model('gemini-2.5-flash-lite', 'Gemini 2.5 Flash-Lite', {
    createdAt: '2025-07-22T00:00:00Z',
    input: 1_048_576,
    output: 65_536,
  }),
  pro3: model('gemini-3-pro-preview', 'Gemini 3 Pro Preview', {
    createdAt: '2025-11-18T00:00:00Z',
    input: 1_048_576,
    output: 65_536,
  }),
};

export const MODEL_CATALOGUE: Record<Platform, readonly CatalogueModel[]> = {
  Anthropic: [claude.opus46, claude.sonnet46, claude.sonnet45, claude.haiku45],
  OpenAI: [
    model('gpt-5.1', 'GPT-5.1', {
      createdAt: '2025-11-13T00:00:00Z',
      input: 400_000,
      output: 128_000,
    }),
    model('gpt-5', 'GPT-5', { createdAt: '2025-08-07T00:00:00Z', input: 400_000, output: 128_000 }),
    model('gpt-5-mini', 'GPT-5 mini', {
      createdAt: '2025-08-07T00:00:00Z',
      input: 400_000,
      output: 128_000,
    }),
    model('gpt-4.1', 'GPT-4.1', {
      createdAt: '2025-04-14T00:00:00Z',
      input: 1_047_576,
      output: 32_768,
    }),
  ],
  Gemini: [gemini.pro3, gemini.pro25, gemini.flash25, gemini.flashLite25],
  Antigravity: [
    claude.sonnet46,
    model('claude-opus-4-6-thinking', 'Claude Opus 4.6 (thinking)', {
      createdAt: '2026-02-05T00:00:00Z',
      input: 200_000,
      output: 64_000,
    }),
    gemini.pro3,
    gemini.pro25,
    gemini.flash25,
  ],
};
