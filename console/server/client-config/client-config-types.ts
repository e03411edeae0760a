/**
 * What the console shows a key's owner to configure their clients: per client tool the files to
 * write, the environment variables to set, shell snippets that set them, how to try it, and a CC
 * Switch import link; plus a model-list check and the usage URL. Built by pure functions from the
 * key's platform, the gateway's public URL and the key.
 */
import type { Platform } from '../../../crds/schema/resources.js';

export type ClientTool = 'claude-code' | 'codex' | 'gemini-cli' | 'opencode';

/** Model names written into the configuration; absent ones fall back to the platform's defaults. */
export interface ModelDefaults {
  /** The model the tool uses by default. */
  main: string;
  /** Claude Code's model aliases (Anthropic and Antigravity keys). */
  haiku?: string;
  sonnet?: string;
  opus?: string;
}

export interface ClientConfigInput {
  platform: Platform;
  /** The gateway's public URL, e.g. `https://gw.example.com` (a trailing slash is dropped). */
  gatewayUrl: string;
  /** The key's value; null writes `KEY_PLACEHOLDER` instead and makes no CC Switch link. */
  keyValue: string | null;
  /** The key's name: the provider name in CC Switch. */
  keyName: string;
  models?: Partial<ModelDefaults>;
}

export type FileLanguage = 'json' | 'toml' | 'dotenv';

export interface ConfigFile {
  /** Where the tool reads it, `~` being the user's home folder. */
  path: string;
  language: FileLanguage;
  content: string;
}

export interface EnvironmentVariable {
  name: string;
  value: string;
}

export interface ToolConfig {
  tool: ClientTool;
  title: string;
  files: ConfigFile[];
  /** The same settings as environment variables (or, where a file cannot, the key). */
  env: EnvironmentVariable[];
  /** `export` lines (POSIX shells) and `$env:` lines (PowerShell) setting `env`. */
  shell: { posix: string; powershell: string };
  /** A one-shot, non-interactive call that proves the configuration works. */
  tryCommand: string;
  /** `ccswitch://v1/import?...`; null without a key value or when CC Switch cannot express it. */
  ccSwitchLink: string | null;
}

export interface ClientConfig {
  platform: Platform;
  /** The gateway URL the key's platform calls (with `/antigravity` for Antigravity keys). */
  baseUrl: string;
  /** `GET` this with the key for its quota, windows and usage. */
  usageUrl: string;
  /** A `curl` of the gateway's model list with the key. */
  checkCommand: string;
  tools: ToolConfig[];
}

export const KEY_PLACEHOLDER = '<your-tollgate-key>';

/** The environment variable Codex and OpenCode read the key from. */
export const KEY_VARIABLE = 'TOLLGATE_API_KEY';
