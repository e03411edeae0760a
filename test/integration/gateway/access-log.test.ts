/**
 * The gateway's access log, read from a real `run-gateway.ts` process at `info`: one line per call,
 * written when it completes, with the request id the caller was given, method, URL, status,
 * duration and, for a refused call, Tollgate's error code; no line when a request arrives, and
 * never a key value (not even one sent in a `key` query parameter).
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore } from '../../../store/create-store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { freePort } from '../../support/redis-server.js';
import { createKey, newSecrets, writeAccount, writeUpstreams } from './gateway-fixture.js';
import { spawnRunGateway } from './spawn-run-gateway.js';

const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-access-log-'));
const secrets = newSecrets();
let fake: FakeProvider;
let child: ChildProcess | null = null;
let output = '';
let apiKey = '';
let port = 0;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  code?: string;
}

const lines = (): LogLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never logged: ${what}`);
}

beforeAll(async () => {
  fake = await startFakeProvider();
  const store = await createStore({ dataDir });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, 'team-log');
  apiKey = (await createKey(store, secrets, { platform: 'Anthropic', namespace: 'team-log' }))
    .value;
  await store.close();
  writeFileSync(join(dataDir, 'pepper'), secrets.pepper);
  writeFileSync(join(dataDir, 'credential-key'), secrets.credentialKey.toString('base64'));
  port = await freePort();
  child = spawnRunGateway({
    args: [
      '--port',
      String(port),
      '--host=127.0.0.1',
      '--metrics-host=127.0.0.1',
      '--data-dir',
      dataDir,
    ],
    env: {
      TOLLGATE_METRICS_PORT: String(await freePort()),
      TOLLGATE_PEPPER_FILE: join(dataDir, 'pepper'),
      TOLLGATE_CREDENTIAL_KEY_FILE: join(dataDir, 'credential-key'),
      TOLLGATE_LOG_LEVEL: 'info',
    },
    stdout: 'pipe',
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await waitFor(
    () => lines().find((line) => line.msg.startsWith('Server listening')),
    'the listening line',
  );
}, 60_000);

afterAll(async () => {
  if (child !== null && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('writes one line per call when it completes, with its id, status and refusal code, and no key', async () => {
  const answered = await request(`http://127.0.0.1:${port}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  expect(answered.statusCode).toBe(200);
  await answered.body.text();
  const answeredId = String(answered.headers['x-tollgate-request-id']);

  // The Anthropic key sent where Gemini clients send theirs: refused, and logged without it.
  const refused = await request(
    `http://127.0.0.1:${port}/v1beta/models/gemini-2.5-flash:generateContent?alt=json&key=${apiKey}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    },
  );
  const refusedBody = await refused.body.text();
  expect(refused.statusCode).toBeGreaterThanOrEqual(400);
  const refusedId = String(refused.headers['x-tollgate-request-id']);

  const answeredLine = await waitFor(
    () => lines().find((line) => line.reqId === answeredId),
    'the answered call',
  );
  const refusedLine = await waitFor(
    () => lines().find((line) => line.reqId === refusedId),
    'the refused call',
  );
  expect(answeredLine).toMatchObject({
    level: 30,
    msg: 'request completed',
    req: { method: 'POST', url: '/v1/messages' },
    res: { statusCode: 200 },
  });
  expect(answeredLine.responseTime).toBeGreaterThan(0);
  expect(answeredLine.code).toBeUndefined();
  expect(refusedLine).toMatchObject({
    msg: 'request completed',
    req: {
      method: 'POST',
      url: '/v1beta/models/gemini-2.5-flash:generateContent?alt=json&key=[redacted]',
    },
    res: { statusCode: refused.statusCode },
  });
  expect(refusedLine.code).toMatch(/^TG_/);
  expect(refusedBody).toContain(refusedLine.code);

  // One line per call: none when a request arrives.
  for (const id of [answeredId, refusedId]) {
    expect(lines().filter((line) => line.reqId === id)).toHaveLength(1);
  }
  expect(output).not.toContain('incoming request');
  expect(output).not.toContain(apiKey);
});
