/** What every tool's generator reads: the resolved endpoints, key and models of one input. */
import type { Platform } from '../../../crds/schema/resources.js';
import type { ModelDefaults } from './client-config-types.js';

export interface ToolContext {
  platform: Platform;
  /** The platform's root URL (gateway URL, plus `/antigravity` for Antigravity). */
  root: string;
  /** The key's value, or the placeholder. */
  key: string;
  /** False when `key` is the placeholder. */
  hasKey: boolean;
  keyName: string;
  models: ModelDefaults;
}

/** Pretty JSON with a final newline, as a file is written. */
export function renderJsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
