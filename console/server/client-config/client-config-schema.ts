/** The console API's shape of a client configuration (zod, for the OpenAPI document). */
import { z } from 'zod';
import { PLATFORMS } from '../../../crds/schema/resources.js';

const toolConfigSchema = z.object({
  tool: z.enum(['claude-code', 'codex', 'gemini-cli', 'opencode']),
  title: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      language: z.enum(['json', 'toml', 'dotenv']),
      content: z.string(),
      /** `required`, or `instead-of-environment`: this file or the environment variables. */
      role: z.enum(['required', 'instead-of-environment']),
    }),
  ),
  env: z.array(z.object({ name: z.string(), value: z.string() })),
  shell: z.object({ posix: z.string(), powershell: z.string() }),
  tryCommand: z.string(),
  /** `ccswitch://v1/import?…` (with the placeholder when the value is not included); null when CC Switch cannot express it. */
  ccSwitchLink: z.string().nullable(),
});

export const clientConfigSchema = z.object({
  platform: z.enum(PLATFORMS),
  baseUrl: z.string(),
  usageUrl: z.string(),
  keyIncluded: z.boolean(),
  usageDisplayNeedsHttps: z.boolean(),
  checkCommand: z.string(),
  tools: z.array(toolConfigSchema),
});
