/**
 * The console's generated client configuration, proven with the installed CLIs (Claude Code,
 * Codex CLI, Gemini CLI, OpenCode; pinned in test/clients/package.json at the versions CLIENTS.md
 * observed, and installed by `npm run clients:install` when missing or stale) against `tollgate
 * local` and its demo world: for every platform and every tool the generator offers, the
 * generated files are written into an empty HOME, the generated environment is set, and the
 * tool's non-interactive command must print the simulator's answer (`FAKE_OK <model>`) and exit
 * 0; the key's `GET /v1/usage` then shows the spend. Only 127.0.0.1 is contacted: each tool runs
 * in the quiet mode its configuration sets (CLIENTS.md), and OpenCode's own downloads
 * are switched off or sent to a closed local port.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../../crds/schema/resources.js';
import {
  generateClientConfig,
  type ToolConfig,
} from '../../../console/server/client-config/generate-client-config.js';
import type { KeyUsageAnswer } from '../../../gateway/routes/render-key-usage.js';
import {
  clientBinFolder,
  CLIENTS_INSTALL_TIMEOUT_MS,
  ensureTestClients,
} from '../../support/install-test-clients.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

const folders: string[] = [];
let local: LocalProcess | undefined;
const keys = new Map<Platform, string>();

// The CLIs first: a failed install fails every case here, with npm's output.
beforeAll(() => ensureTestClients(), CLIENTS_INSTALL_TIMEOUT_MS + 10_000);

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), 'tollgate-clis-'));
  folders.push(data);
  const started = await startLocalProcess(data);
  local = started;
  for (const platform of ['Anthropic', 'OpenAI', 'Gemini', 'Antigravity'] as const) {
    const group = platform.toLowerCase();
    keys.set(platform, await started.createKey({ name: `cli-${group}`, group }));
  }
}, 120_000);

function gatewayUrl(): string {
  if (local === undefined) throw new Error('tollgate local is not running');
  return local.gatewayUrl;
}

afterAll(async () => {
  // Not started when the CLIs' install failed: that error is the one reported.
  if (local !== undefined) expect(await local.stop()).toBe(0);
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Writes the tool's files into a fresh HOME (`~` is that HOME). */
function homeWith(tool: ToolConfig): string {
  const home = mkdtempSync(join(tmpdir(), `tollgate-home-${tool.tool}-`));
  folders.push(home);
  for (const file of tool.files) {
    const path = join(home, file.path.replace(/^~\//, ''));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  mkdirSync(join(home, 'work'));
  return home;
}

/** The command line of `tryCommand`, without a shell. */
function commandOf(tool: ToolConfig): { file: string; args: string[] } {
  const words = [...tool.tryCommand.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
  const [name, ...args] = words;
  return { file: join(clientBinFolder, name ?? ''), args };
}

function run(tool: ToolConfig, home: string): Promise<{ code: number; output: string }> {
  const { file, args } = commandOf(tool);
  // Only what the generated configuration sets, plus a PATH and the home: nothing inherited.
  // Claude Code reads its settings from the file alone: its variables are not set here.
  const configured =
    tool.tool === 'claude-code'
      ? { CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK: '1' }
      : Object.fromEntries(tool.env.map(({ name, value }) => [name, value]));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    ...configured,
  };
  // OpenCode's own downloads are not part of the configuration: its model catalogue
  // (models.opencode.ai), updates, and the plugin package it installs into its config folder from
  // the npm registry (pointed at a closed local port: the install fails and the run goes on).
  if (tool.tool === 'opencode') {
    env.OPENCODE_DISABLE_MODELS_FETCH = '1';
    env.OPENCODE_DISABLE_AUTOUPDATE = '1';
    env.OPENCODE_DISABLE_LSP_DOWNLOAD = '1';
    env.npm_config_registry = 'http://127.0.0.1:9/';
  }
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: join(home, 'work'), env, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
    child.stdin?.end();
  });
}

async function usageOf(key: string): Promise<KeyUsageAnswer> {
  const response = await fetch(`${gatewayUrl()}/v1/usage`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as KeyUsageAnswer;
}

const cases = (['Anthropic', 'OpenAI', 'Gemini', 'Antigravity'] as const).flatMap((platform) =>
  generateClientConfig({
    platform,
    gatewayUrl: 'http://placeholder',
    keyValue: 'k',
    keyName: 'n',
  }).tools.map((tool) => ({ platform, tool: tool.tool })),
);

describe('the installed CLIs with the generated configuration, against tollgate local', () => {
  it.each(cases)(
    '$platform: $tool',
    async ({ platform, tool: name }) => {
      const key = keys.get(platform) ?? '';
      const config = generateClientConfig({
        platform,
        gatewayUrl: gatewayUrl(),
        keyValue: key,
        keyName: `cli-${platform.toLowerCase()}`,
      });
      const tool = config.tools.find((candidate) => candidate.tool === name);
      if (tool === undefined) throw new Error(`no ${name} for ${platform}`);
      const before = await usageOf(key);
      const result = await run(tool, homeWith(tool));
      expect(result.output).toContain('FAKE_OK');
      expect(result.code).toBe(0);
      // The spend settles when each response closes: read until it shows.
      let after = await usageOf(key);
      for (let attempt = 0; attempt < 50 && after.total.used === before.total.used; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await usageOf(key);
      }
      expect(after.total.used).toBeGreaterThan(before.total.used);
    },
    150_000,
  );
});
