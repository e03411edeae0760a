/** What every tool's generator reads: the resolved endpoints, key and models of one input. */
import type { Platform } from '../../../crds/schema/resources.js';
import type { ModelDefaults } from './client-config-types.js';

export interface ToolContext {
  platform: Platform;
  /** The platform's root URL (gateway URL, plus `/antigravity` for Antigravity). */
  root: string;
  /** The key's value, or the placeholder. */
  key: string;
  keyName: string;
  /** The console's public address (the CC Switch provider's homepage), when known. */
  consoleUrl: string | undefined;
  models: ModelDefaults;
}

/** Pretty JSON with a final newline, as a file is written. */
export function renderJsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The CC Switch link fields every tool shares: the provider's name, key, homepage, usage root. */
export function ccSwitchProvider(context: ToolContext) {
  return {
    name: context.keyName,
    apiKey: context.key,
    homepage: context.consoleUrl,
    usageBaseUrl: context.root,
  };
}
