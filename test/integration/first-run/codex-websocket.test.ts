/**
 * The installed Codex CLI over the Responses WebSocket through `tollgate local`: the generated
 * configuration plus `supports_websockets = true` on the model provider, so Codex opens
 * `GET /v1/responses` with `openai-beta: responses_websockets=…` and sends each turn (its warm-up
 * with `generate: false`, then the turn) as a `response.create` message. The answer must arrive,
 * the gateway's metrics must show the upgrade and the turn on the socket, and the key's usage must
 * grow.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateClientConfig } from '../../../console/server/client-config/generate-client-config.js';
import {
  clientBinFolder,
  CLIENTS_INSTALL_TIMEOUT_MS,
  ensureTestClients,
} from '../../support/install-test-clients.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

const folders: string[] = [];
let local: LocalProcess | undefined;
let key = '';

beforeAll(() => ensureTestClients(), CLIENTS_INSTALL_TIMEOUT_MS + 10_000);

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), 'tollgate-codex-ws-'));
  folders.push(data);
  local = await startLocalProcess(data);
  key = await local.createKey({ name: 'codex-websocket', group: 'openai' });
}, 120_000);

afterAll(async () => {
  if (local !== undefined) expect(await local.stop()).toBe(0);
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function started(): LocalProcess {
  if (local === undefined) throw new Error('tollgate local is not running');
  return local;
}

async function gatewayMetric(name: string): Promise<number> {
  const url = /gateway metrics:\s+(\S+)/.exec(started().output())?.[1];
  if (url === undefined) throw new Error('the banner names no gateway metrics');
  const text = await (await fetch(url)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(name));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

async function usedNano(): Promise<number> {
  const response = await fetch(`${started().gatewayUrl}/v1/usage`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await response.json()) as { total: { used: number } }).total.used;
}

function runCodex(home: string, env: Record<string, string>, prompt: string) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = execFile(
      join(clientBinFolder, 'codex'),
      ['exec', '--skip-git-repo-check', prompt],
      {
        cwd: join(home, 'work'),
        env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
        timeout: 120_000,
        maxBuffer: 8 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
    child.stdin?.end();
  });
}

/** A HOME with the generated Codex files plus `supports_websockets = true`, and its environment. */
function codexHome(): { home: string; env: Record<string, string> } {
  const config = generateClientConfig({
    platform: 'OpenAI',
    gatewayUrl: started().gatewayUrl,
    keyValue: key,
    keyName: 'codex-websocket',
  });
  const codex = config.tools.find((tool) => tool.tool === 'codex');
  if (codex === undefined) throw new Error('no Codex configuration');
  const home = mkdtempSync(join(tmpdir(), 'tollgate-home-codex-ws-'));
  folders.push(home);
  for (const file of codex.files) {
    const path = join(home, file.path.replace(/^~\//, ''));
    mkdirSync(dirname(path), { recursive: true });
    // The provider's table is the file's last: the switch lands in it.
    writeFileSync(path, `${file.content}supports_websockets = true\n`);
  }
  mkdirSync(join(home, 'work'));
  const env = Object.fromEntries(codex.env.map(({ name, value }) => [name, value]));
  return { home, env };
}

it('runs a Codex turn over the WebSocket, billed', async () => {
  const { home, env } = codexHome();

  const upgradesBefore = await gatewayMetric('tollgate_websocket_upgrades_total{outcome="opened"}');
  const turnsBefore = await gatewayMetric('tollgate_websocket_messages_total{outcome="turn"}');
  const before = await usedNano();
  const result = await runCodex(home, env, 'say hi');
  expect(result.output).toContain('FAKE_OK');
  expect(result.code).toBe(0);

  expect(
    await gatewayMetric('tollgate_websocket_upgrades_total{outcome="opened"}'),
  ).toBeGreaterThan(upgradesBefore);
  expect(await gatewayMetric('tollgate_websocket_messages_total{outcome="turn"}')).toBeGreaterThan(
    turnsBefore,
  );
  // No upgrade was refused on the way (Codex would have fallen back to HTTP).
  expect(await gatewayMetric('tollgate_websocket_upgrades_total{outcome="refused"}')).toBe(0);
  let after = await usedNano();
  for (let attempt = 0; attempt < 50 && after === before; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await usedNano();
  }
  expect(after).toBeGreaterThan(before);
}, 150_000);

it('runs a tool round trip over the socket: two turns, the tool output sent back on it', async () => {
  const { home, env } = codexHome();
  const turnsBefore = await gatewayMetric('tollgate_websocket_messages_total{outcome="turn"}');
  // The simulator answers "use tool" with a call of Codex's first tool; Codex sends its output
  // back as the only input of the next response.create, chained to the last response.
  const result = await runCodex(home, env, 'use tool');
  expect(result.output).toContain('FAKE_OK');
  expect(result.code).toBe(0);
  const turns = await gatewayMetric('tollgate_websocket_messages_total{outcome="turn"}');
  expect(turns - turnsBefore).toBeGreaterThanOrEqual(2);
  expect(await gatewayMetric('tollgate_websocket_messages_total{outcome="refused"}')).toBe(0);
}, 150_000);
