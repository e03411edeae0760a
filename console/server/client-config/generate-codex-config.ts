/**
 * Codex CLI (CLIENTS.md §2, §5): `~/.codex/config.toml` with a `tollgate` model provider
 * (`base_url` with `/v1`, `wire_api = "responses"`, the only one Codex accepts) whose key comes
 * from the `TOLLGATE_API_KEY` environment variable (`env_key`), so the file holds no secret and a
 * ChatGPT login in `auth.json` stays untouched; `[analytics]` and `[features] plugins` off so
 * nothing goes to another host. OpenAI keys only.
 */
import { KEY_VARIABLE, type EnvironmentVariable, type ToolConfig } from './client-config-types.js';
import { buildCcSwitchLink } from './build-cc-switch-link.js';
import { renderShellLines } from './render-shell-lines.js';
import { ccSwitchProvider, type ToolContext } from './tool-context.js';

/** A TOML basic string: JSON's escapes are TOML's. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

export function renderCodexToml(options: { model: string; baseUrl: string }): string {
  return [
    `model = ${tomlString(options.model)}`,
    'model_provider = "tollgate"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    '',
    '[model_providers.tollgate]',
    'name = "Tollgate"',
    `base_url = ${tomlString(options.baseUrl)}`,
    'wire_api = "responses"',
    `env_key = "${KEY_VARIABLE}"`,
    '',
  ].join('\n');
}

export function generateCodexConfig(context: ToolContext): ToolConfig {
  const baseUrl = `${context.root}/v1`;
  const env: EnvironmentVariable[] = [{ name: KEY_VARIABLE, value: context.key }];
  return {
    tool: 'codex',
    title: 'Codex CLI',
    files: [
      {
        path: '~/.codex/config.toml',
        language: 'toml',
        content: renderCodexToml({ model: context.models.main, baseUrl }),
        // It names the environment variable holding the key: both are needed.
        role: 'required',
      },
    ],
    env,
    shell: renderShellLines(env),
    tryCommand: 'codex exec --skip-git-repo-check "say hi"',
    ccSwitchLink: buildCcSwitchLink({
      app: 'codex',
      ...ccSwitchProvider(context),
      endpoint: baseUrl,
      model: context.models.main,
    }),
  };
}
