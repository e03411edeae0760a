/**
 * Gemini CLI (CLIENTS.md §2, §5): `~/.gemini/.env` with `GOOGLE_GEMINI_BASE_URL` (no `/v1beta`,
 * the `/antigravity` prefix kept), `GEMINI_API_KEY` and `GEMINI_MODEL`, and `~/.gemini/settings.json`
 * pinning `security.auth.selectedType` to `gemini-api-key` (mandatory in 0.61.0: with a base URL
 * and no pinned type the CLI exits 41) with usage statistics off (no request to another host).
 */
import type { EnvironmentVariable, ToolConfig } from './client-config-types.js';
import { buildCcSwitchLink } from './build-cc-switch-link.js';
import { renderDotenv, renderShellLines } from './render-shell-lines.js';
import { ANTIGRAVITY_GEMINI_MODEL } from './resolve-platform-endpoints.js';
import { ccSwitchProvider, renderJsonFile, type ToolContext } from './tool-context.js';

export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
};

export function generateGeminiCliConfig(context: ToolContext): ToolConfig {
  // Antigravity keys name a Gemini model here, whatever their Claude Code default is.
  const model = context.platform === 'Antigravity' ? ANTIGRAVITY_GEMINI_MODEL : context.models.main;
  const env: EnvironmentVariable[] = [
    { name: 'GOOGLE_GEMINI_BASE_URL', value: context.root },
    { name: 'GEMINI_API_KEY', value: context.key },
    { name: 'GEMINI_MODEL', value: model },
  ];
  return {
    tool: 'gemini-cli',
    title: 'Gemini CLI',
    files: [
      {
        path: '~/.gemini/.env',
        language: 'dotenv',
        content: renderDotenv(env),
        role: 'instead-of-environment',
      },
      {
        path: '~/.gemini/settings.json',
        language: 'json',
        content: renderJsonFile(GEMINI_SETTINGS),
        // The auth type it pins is needed whichever way the rest is given.
        role: 'required',
      },
    ],
    env,
    shell: renderShellLines(env),
    tryCommand: 'gemini -p "say hi" --skip-trust',
    ccSwitchLink: buildCcSwitchLink({
      app: 'gemini',
      ...ccSwitchProvider(context),
      endpoint: context.root,
      model,
    }),
  };
}
