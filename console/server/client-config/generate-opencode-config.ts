/**
 * OpenCode (CLIENTS.md §2, §5): a `tollgate` provider in `~/.config/opencode/opencode.json`
 * (`provider` singular; `baseURL` and `apiKey` inside `options`) using the AI SDK package of the
 * key's protocol: `@ai-sdk/anthropic` at `/v1` (Anthropic; Antigravity under `/antigravity`),
 * `@ai-sdk/openai` at `/v1` (Responses) and `@ai-sdk/google` at `/v1beta`. The key is read from
 * `TOLLGATE_API_KEY` (`{env:...}`), so the file holds no secret.
 *
 * CC Switch imports OpenCode providers as `@ai-sdk/openai-compatible` (Chat Completions) only,
 * which only OpenAI keys may call: the link is made for OpenAI keys alone.
 */
import type { Platform } from '../../../crds/schema/resources.js';
import { KEY_VARIABLE, type EnvironmentVariable, type ToolConfig } from './client-config-types.js';
import { buildCcSwitchLink } from './build-cc-switch-link.js';
import { renderShellLines } from './render-shell-lines.js';
import { ccSwitchProvider, renderJsonFile, type ToolContext } from './tool-context.js';

const PROVIDER_ID = 'tollgate';

const PACKAGES: Record<Platform, { npm: string; path: string }> = {
  Anthropic: { npm: '@ai-sdk/anthropic', path: '/v1' },
  OpenAI: { npm: '@ai-sdk/openai', path: '/v1' },
  Gemini: { npm: '@ai-sdk/google', path: '/v1beta' },
  Antigravity: { npm: '@ai-sdk/anthropic', path: '/v1' },
};

export function generateOpenCodeConfig(context: ToolContext): ToolConfig {
  const model = context.models.main;
  const sdk = PACKAGES[context.platform];
  const config = {
    $schema: 'https://opencode.ai/config.json',
    model: `${PROVIDER_ID}/${model}`,
    provider: {
      [PROVIDER_ID]: {
        npm: sdk.npm,
        name: 'Tollgate',
        options: { baseURL: `${context.root}${sdk.path}`, apiKey: `{env:${KEY_VARIABLE}}` },
        models: { [model]: { name: model } },
      },
    },
  };
  const env: EnvironmentVariable[] = [{ name: KEY_VARIABLE, value: context.key }];
  return {
    tool: 'opencode',
    title: 'OpenCode',
    files: [
      {
        path: '~/.config/opencode/opencode.json',
        language: 'json',
        content: renderJsonFile(config),
        // It reads the key from the environment variable: both are needed.
        role: 'required',
      },
    ],
    env,
    shell: renderShellLines(env),
    tryCommand: `opencode run -m ${PROVIDER_ID}/${model} "say hi"`,
    ccSwitchLink:
      context.platform === 'OpenAI'
        ? buildCcSwitchLink({
            app: 'opencode',
            ...ccSwitchProvider(context),
            endpoint: `${context.root}/v1`,
            model,
          })
        : null,
  };
}
