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
  /**
   * The key's value; null writes `KEY_PLACEHOLDER` instead (the CC Switch links carry it too: the
   * value is pasted into CC Switch after the import).
   */
  keyValue: string | null;
  /** The key's name (its display name): the provider name in CC Switch. */
  keyName: string;
  /** The console's public address: the provider's homepage in CC Switch. */
  consoleUrl?: string | undefined;
  models?: Partial<ModelDefaults>;
}

export type FileLanguage = 'json' | 'toml' | 'dotenv';

/**
 * A file every setup of the tool needs (`required`), or one that holds the same settings as the
 * environment variables: write it or set them, either one (`instead-of-environment`).
 */
export type FileRole = 'required' | 'instead-of-environment';

export interface ConfigFile {
  /** Where the tool reads it, `~` being the user's home folder. */
  path: string;
  language: FileLanguage;
  content: string;
  role: FileRole;
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
  /** `ccswitch://v1/import?...`; null when CC Switch cannot express the configuration. */
  ccSwitchLink: string | null;
}

export interface ClientConfig {
  platform: Platform;
  /** The gateway URL the key's platform calls (with `/antigravity` for Antigravity keys). */
  baseUrl: string;
  /** `GET` this with the key for its quota, windows and usage. */
  usageUrl: string;
  /** False when the configuration holds `KEY_PLACEHOLDER` instead of the value. */
  keyIncluded: boolean;
  /**
   * True when CC Switch's usage display cannot read the gateway: plain HTTP to another machine
   * (it asks over HTTPS, or plain HTTP to this machine only).
   */
  usageDisplayNeedsHttps: boolean;
  /** A `curl` of the gateway's model list with the key. */
  checkCommand: string;
  tools: ToolConfig[];
}

export const KEY_PLACEHOLDER = '<your-tollgate-key>';

/** The environment variable Codex and OpenCode read the key from. */
export const KEY_VARIABLE = 'TOLLGATE_API_KEY';
