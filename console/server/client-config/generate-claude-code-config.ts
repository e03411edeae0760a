/**
 * Claude Code (CLIENTS.md §2, §5): `ANTHROPIC_BASE_URL` (no `/v1`, the `/antigravity` prefix kept)
 * and `ANTHROPIC_AUTH_TOKEN` (Bearer: with `ANTHROPIC_API_KEY` the key would also go to
 * api.anthropic.com), the model and its aliases, and `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`
 * (no request to any other host). The same `env` block goes into `~/.claude/settings.json`.
 */
import type { EnvironmentVariable, ToolConfig } from './client-config-types.js';
import { buildCcSwitchLink } from './build-cc-switch-link.js';
import { renderShellLines } from './render-shell-lines.js';
import { ccSwitchProvider, renderJsonFile, type ToolContext } from './tool-context.js';

const QUIET = { name: 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', value: '1' };

export function generateClaudeCodeConfig(context: ToolContext): ToolConfig {
  const { models } = context;
  const env: EnvironmentVariable[] = [
    { name: 'ANTHROPIC_BASE_URL', value: context.root },
    { name: 'ANTHROPIC_AUTH_TOKEN', value: context.key },
    { name: 'ANTHROPIC_MODEL', value: models.main },
  ];
  if (models.haiku !== undefined) {
    env.push({ name: 'ANTHROPIC_DEFAULT_HAIKU_MODEL', value: models.haiku });
  }
  if (models.sonnet !== undefined) {
    env.push({ name: 'ANTHROPIC_DEFAULT_SONNET_MODEL', value: models.sonnet });
  }
  if (models.opus !== undefined) {
    env.push({ name: 'ANTHROPIC_DEFAULT_OPUS_MODEL', value: models.opus });
  }
  env.push(QUIET);
  const settings = { env: Object.fromEntries(env.map(({ name, value }) => [name, value])) };
  return {
    tool: 'claude-code',
    title: 'Claude Code',
    files: [
      {
        path: '~/.claude/settings.json',
        language: 'json',
        content: renderJsonFile(settings),
        role: 'instead-of-environment',
      },
    ],
    env,
    shell: renderShellLines(env),
    tryCommand: 'claude -p "say hi"',
    ccSwitchLink: buildCcSwitchLink({
      app: 'claude',
      ...ccSwitchProvider(context),
      endpoint: context.root,
      model: models.main,
      aliases: { haiku: models.haiku, sonnet: models.sonnet, opus: models.opus },
      config: { env: { [QUIET.name]: QUIET.value } },
    }),
  };
}
