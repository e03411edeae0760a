/**
 * Multi-turn tool-using sessions of the real agent CLIs (Claude Code and Gemini CLI, pinned in
 * test/clients/package.json) through `tollgate local` and its demo world, configured as the
 * console generates it (as in client-clis.test.ts). The prompt asks the CLI to read a file in its
 * working folder and carries the simulator's marker line `TOOL:<name> <json>` naming the CLI's own
 * file-read tool (Claude Code `Read`, Gemini CLI `read_file`, both `{"file_path": <absolute>}`;
 * docs/clients.md): the first model call answers with that tool call, the CLI runs the tool and
 * sends its result back, and the second answers with text repeating the result. Checked: the CLI
 * prints the file's content, the key's ledger records hold exactly the session's two model calls
 * (one record per call, successful, distinct request ids) and the key's spend is their sum.
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
import type { UsageRecordRow } from '../../../console/server/usage/usage-schemas.js';
import type { KeyUsageAnswer } from '../../../gateway/routes/render-key-usage.js';
import {
  clientBinFolder,
  CLIENTS_INSTALL_TIMEOUT_MS,
  ensureTestClients,
} from '../../support/install-test-clients.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

const folders: string[] = [];
let local: LocalProcess | undefined;
let session: { consoleUrl: string; cookie: string } | undefined;

beforeAll(() => ensureTestClients(), CLIENTS_INSTALL_TIMEOUT_MS + 10_000);

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), 'tollgate-sessions-'));
  folders.push(data);
  local = await startLocalProcess(data);
  const banner = local.output();
  const consoleUrl = /^\s+console:\s+(\S+)/m.exec(banner)?.[1];
  const password = /^\s+console sign-in:\s+admin \/ (\S+)/m.exec(banner)?.[1];
  if (consoleUrl === undefined || password === undefined) throw new Error(banner);
  const signIn = await fetch(`${consoleUrl}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  session = { consoleUrl, cookie };
}, 120_000);

afterAll(async () => {
  if (local !== undefined) expect(await local.stop()).toBe(0);
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function started(): LocalProcess {
  if (local === undefined) throw new Error('tollgate local is not running');
  return local;
}

/** The tool's generated files in a fresh HOME, and a working folder holding the note to read. */
function homeWith(tool: ToolConfig, note: string): { home: string; notePath: string } {
  const home = mkdtempSync(join(tmpdir(), `tollgate-session-${tool.tool}-`));
  folders.push(home);
  for (const file of tool.files) {
    const path = join(home, file.path.replace(/^~\//, ''));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  mkdirSync(join(home, 'work'));
  const notePath = join(home, 'work', 'note.txt');
  writeFileSync(notePath, `${note}\n`);
  return { home, notePath };
}

const READ_TOOL = { 'claude-code': 'Read', 'gemini-cli': 'read_file' } as const;
type SessionTool = keyof typeof READ_TOOL;

function run(options: { tool: ToolConfig; home: string; prompt: string }) {
  const { tool, home, prompt } = options;
  const claude = tool.tool === 'claude-code';
  const file = join(clientBinFolder, claude ? 'claude' : 'gemini');
  const args = claude ? ['-p', prompt] : ['-p', prompt, '--skip-trust'];
  // As client-clis.test.ts: Claude Code reads its settings file alone (and must not fall back to
  // a second, non-streamed call); Gemini CLI gets the generated environment.
  const configured = claude
    ? { CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK: '1' }
    : Object.fromEntries(tool.env.map(({ name, value }) => [name, value]));
  const env = { PATH: process.env.PATH ?? '', HOME: home, ...configured };
  return new Promise<{ code: number; output: string }>((resolve) => {
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
  const response = await fetch(`${started().gatewayUrl}/v1/usage`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as KeyUsageAnswer;
}

async function recordsOf(keyName: string): Promise<UsageRecordRow[]> {
  if (session === undefined) throw new Error('not signed in to the console');
  const response = await fetch(
    `${session.consoleUrl}/api/v1/accounts/demo/usage/records?key=${keyName}&limit=100`,
    { headers: { cookie: session.cookie } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { records: UsageRecordRow[] }).records;
}

/** The key's records once the ledger has `count` of them and the spend equals their sum. */
async function settledRecords(options: { key: string; keyName: string; count: number }) {
  let records: UsageRecordRow[] = [];
  let usedNano = 0;
  for (let attempt = 0; attempt < 100; attempt++) {
    records = await recordsOf(options.keyName);
    usedNano = Math.round((await usageOf(options.key)).total.used * 1e9);
    const sum = records.reduce((total, record) => total + record.costNano, 0);
    if (records.length >= options.count && usedNano === sum) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { records, usedNano };
}

const cases: { platform: Platform; tool: SessionTool }[] = [
  { platform: 'Anthropic', tool: 'claude-code' },
  { platform: 'Gemini', tool: 'gemini-cli' },
  { platform: 'Antigravity', tool: 'claude-code' },
  { platform: 'Antigravity', tool: 'gemini-cli' },
];

describe('agent CLIs through a tool-using session, against tollgate local', () => {
  it.each(cases)(
    '$platform: $tool reads a file with its own tool and answers with its content',
    async ({ platform, tool: name }) => {
      const keyName = `session-${platform.toLowerCase()}-${name}`;
      const key = await started().createKey({ name: keyName, group: platform.toLowerCase() });
      const config = generateClientConfig({
        platform,
        gatewayUrl: started().gatewayUrl,
        keyValue: key,
        keyName,
      });
      const tool = config.tools.find((candidate) => candidate.tool === name);
      if (tool === undefined) throw new Error(`no ${name} for ${platform}`);
      const note = `note-${platform}-${name}-${Date.now()}`;
      const { home, notePath } = homeWith(tool, note);
      const marker = `TOOL:${READ_TOOL[name]} ${JSON.stringify({ file_path: notePath })}`;
      const prompt = `Read the file note.txt and tell me what it says.\n${marker}`;

      const result = await run({ tool, home, prompt });
      expect(result.output).toContain('after tools:');
      expect(result.output).toContain(note);
      expect(result.code).toBe(0);

      // Two model calls: the one that asked for the tool, the one that read its result.
      const { records, usedNano } = await settledRecords({ key, keyName, count: 2 });
      expect(records.map((record) => [record.kind, record.status])).toEqual([
        ['request', 200],
        ['request', 200],
      ]);
      expect(new Set(records.map((record) => record.requestId)).size).toBe(2);
      expect(records.every((record) => record.costNano > 0)).toBe(true);
      expect(usedNano).toBe(records.reduce((total, record) => total + record.costNano, 0));
    },
    150_000,
  );
});
