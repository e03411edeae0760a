/**
 * The CC Switch import deep link (CLIENTS.md §4): `ccswitch://v1/import?resource=provider&...`,
 * built with URLSearchParams. It carries a usage script that reads the gateway's `GET /v1/usage`
 * with the provider's own key, so CC Switch shows the key's remaining quota. Pure.
 */
import { TOLLGATE_USAGE_SCRIPT } from './render-usage-script.js';

export type CcSwitchApp = 'claude' | 'codex' | 'gemini' | 'opencode';

export interface CcSwitchLinkInput {
  app: CcSwitchApp;
  name: string;
  /** The provider endpoint, as the app's configuration takes it. */
  endpoint: string;
  apiKey: string;
  /** The console's address, shown as the provider's website in CC Switch. */
  homepage?: string | undefined;
  model?: string | undefined;
  /** Claude only. */
  aliases?: { haiku?: string | undefined; sonnet?: string | undefined; opus?: string | undefined };
  /** Extra configuration, encoded as base64 JSON (`configFormat=json`). */
  config?: Record<string, unknown>;
  /** The `{{baseUrl}}` of the usage script: the root the key's `/v1/usage` is under. */
  usageBaseUrl: string;
}

/** Minutes between CC Switch's background usage queries of the active provider. */
export const USAGE_REFRESH_MINUTES = 5;

function encodeBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

export function buildCcSwitchLink(input: CcSwitchLinkInput): string {
  const params = new URLSearchParams({
    resource: 'provider',
    app: input.app,
    name: input.name,
    endpoint: input.endpoint,
    apiKey: input.apiKey,
  });
  if (input.homepage !== undefined) params.set('homepage', input.homepage);
  if (input.model !== undefined) params.set('model', input.model);
  const aliases = input.aliases ?? {};
  if (aliases.haiku !== undefined) params.set('haikuModel', aliases.haiku);
  if (aliases.sonnet !== undefined) params.set('sonnetModel', aliases.sonnet);
  if (aliases.opus !== undefined) params.set('opusModel', aliases.opus);
  if (input.config !== undefined) {
    params.set('config', encodeBase64(JSON.stringify(input.config)));
    params.set('configFormat', 'json');
  }
  params.set('usageScript', encodeBase64(TOLLGATE_USAGE_SCRIPT));
  params.set('usageEnabled', 'true');
  params.set('usageBaseUrl', input.usageBaseUrl);
  params.set('usageAutoInterval', String(USAGE_REFRESH_MINUTES));
  return `ccswitch://v1/import?${params.toString()}`;
}
