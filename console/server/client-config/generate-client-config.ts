/**
 * `generateClientConfig(input)`: the console's client configuration for one key, per tool that
 * can use the key's platform (CLIENTS.md):
 *
 * | Platform    | Tools                              |
 * | ----------- | ---------------------------------- |
 * | Anthropic   | Claude Code, OpenCode              |
 * | OpenAI      | Codex CLI, OpenCode                |
 * | Gemini      | Gemini CLI, OpenCode               |
 * | Antigravity | Claude Code, Gemini CLI, OpenCode  |
 *
 * Pure: no clock, no I/O. The key value appears only where the caller gave it.
 */
import type { Platform } from '../../../crds/schema/resources.js';
import {
  KEY_PLACEHOLDER,
  type ClientConfig,
  type ClientConfigInput,
  type ClientTool,
  type ToolConfig,
} from './client-config-types.js';
import { generateClaudeCodeConfig } from './generate-claude-code-config.js';
import { generateCodexConfig } from './generate-codex-config.js';
import { generateGeminiCliConfig } from './generate-gemini-cli-config.js';
import { generateOpenCodeConfig } from './generate-opencode-config.js';
import { quotePosix } from './render-shell-lines.js';
import { usageDisplayNeedsHttps } from './check-usage-display-address.js';
import { resolveModels, resolvePlatformEndpoints } from './resolve-platform-endpoints.js';
import type { ToolContext } from './tool-context.js';

export const PLATFORM_TOOLS: Record<Platform, readonly ClientTool[]> = {
  Anthropic: ['claude-code', 'opencode'],
  OpenAI: ['codex', 'opencode'],
  Gemini: ['gemini-cli', 'opencode'],
  Antigravity: ['claude-code', 'gemini-cli', 'opencode'],
};

const GENERATORS: Record<ClientTool, (context: ToolContext) => ToolConfig> = {
  'claude-code': generateClaudeCodeConfig,
  codex: generateCodexConfig,
  'gemini-cli': generateGeminiCliConfig,
  opencode: generateOpenCodeConfig,
};

export function generateClientConfig(input: ClientConfigInput): ClientConfig {
  const endpoints = resolvePlatformEndpoints(input.platform, input.gatewayUrl);
  const given = input.keyValue === null || input.keyValue === '' ? null : input.keyValue;
  const key = given ?? KEY_PLACEHOLDER;
  const context: ToolContext = {
    platform: input.platform,
    root: endpoints.root,
    key,
    keyName: input.keyName,
    consoleUrl: input.consoleUrl,
    models: resolveModels(input.platform, input.models),
  };
  const { url, header } = endpoints.modelList;
  const credential = header === 'x-goog-api-key' ? `x-goog-api-key: ${key}` : `${header} ${key}`;
  return {
    platform: input.platform,
    baseUrl: endpoints.root,
    usageUrl: endpoints.usageUrl,
    keyIncluded: given !== null,
    usageDisplayNeedsHttps: usageDisplayNeedsHttps(endpoints.root),
    checkCommand: `curl -sS ${quotePosix(url)} -H ${quotePosix(credential)}`,
    tools: PLATFORM_TOOLS[input.platform].map((tool) => GENERATORS[tool](context)),
  };
}

export type { ClientConfig, ClientConfigInput, ClientTool, ToolConfig };
export { KEY_PLACEHOLDER, KEY_VARIABLE } from './client-config-types.js';
