/**
 * The installed Codex CLI over the Responses WebSocket through `tollgate local`, to an upstream
 * with `responsesWebSocket: Enabled` (the demo OpenAI Upstream patched with kubectl; the
 * simulator serves the WebSocket mode as the API does): Codex's turns must go over an upstream
 * socket (the gateway's upstream-socket metrics), its tool round trip chained there with
 * `previous_response_id`, its answer arrive and the key's usage grow.
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
import { openResponsesSocket } from '../../support/responses-websocket-client.js';
import { startLocalProcess, type LocalProcess } from './local-process.js';

const folders: string[] = [];
let local: LocalProcess | undefined;
let key = '';
const opened = 'tollgate_websocket_upstream_sockets_total{outcome="opened"}';
const chained = 'tollgate_websocket_upstream_turns_total{chained="true"}';

beforeAll(() => ensureTestClients(), CLIENTS_INSTALL_TIMEOUT_MS + 10_000);

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), 'tollgate-codex-wsup-'));
  folders.push(data);
  // The gateway reads the patched Upstream within half a second.
  local = await startLocalProcess(data, [], { TOLLGATE_UPSTREAM_REFRESH_MS: '500' });
  await local.kubectl([
    'patch',
    'upstream',
    'demo-openai',
    '--type',
    'merge',
    '-p',
    '{"spec":{"responsesWebSocket":"Enabled"}}',
  ]);
  key = await local.createKey({ name: 'codex-websocket-upstream', group: 'openai' });
  await untilServedOverSocket();
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

/** One turn over a test socket until the gateway opens an upstream socket for it (the patch took). */
async function untilServedOverSocket(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await gatewayMetric(opened)) === 0) {
    if (Date.now() > deadline) throw new Error('the gateway never opened an upstream socket');
    const client = await openResponsesSocket(started().gatewayUrl, {
      authorization: `Bearer ${key}`,
    });
    const input = [{ type: 'message', role: 'user', content: 'ready?' }];
    await client.turn({ type: 'response.create', model: 'gpt-5.4', input });
    client.socket.close();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
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
    keyName: 'codex-websocket-upstream',
  });
  const codex = config.tools.find((tool) => tool.tool === 'codex');
  if (codex === undefined) throw new Error('no Codex configuration');
  const home = mkdtempSync(join(tmpdir(), 'tollgate-home-codex-wsup-'));
  folders.push(home);
  for (const file of codex.files) {
    const path = join(home, file.path.replace(/^~\//, ''));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${file.content}supports_websockets = true\n`);
  }
  mkdirSync(join(home, 'work'));
  const env = Object.fromEntries(codex.env.map(({ name, value }) => [name, value]));
  return { home, env };
}

it('runs a Codex tool round trip over the upstream socket, chained there, billed', async () => {
  const { home, env } = codexHome();
  const openedBefore = await gatewayMetric(opened);
  const chainedBefore = await gatewayMetric(chained);
  const before = await usedNano();
  // "use tool": a call of Codex's first tool, then Codex sends its output back chained to it.
  const result = await runCodex(home, env, 'use tool');
  expect(result.output).toContain('FAKE_OK');
  expect(result.code).toBe(0);
  expect(await gatewayMetric(opened)).toBeGreaterThan(openedBefore);
  expect(await gatewayMetric(chained)).toBeGreaterThan(chainedBefore);
  expect(await gatewayMetric('tollgate_websocket_upgrades_total{outcome="refused"}')).toBe(0);
  let after = await usedNano();
  for (let attempt = 0; attempt < 50 && after === before; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await usedNano();
  }
  expect(after).toBeGreaterThan(before);
}, 150_000);
