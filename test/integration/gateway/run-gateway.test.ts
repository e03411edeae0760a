/**
 * `run-gateway.ts` as a real process: configuration from flags and TOLLGATE_* variables, the
 * metrics port, and the graceful drain on SIGTERM (a stream in flight finishes, then exit 0).
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
import { spawnRunGateway, waitUntilReady } from './spawn-run-gateway.js';

const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-gateway-run-'));
const secrets = newSecrets();
let fake: FakeProvider;
let child: ChildProcess | null = null;
let apiKey = '';
let port = 0;
let metricsPort = 0;

beforeAll(async () => {
  fake = await startFakeProvider();
  const store = await createStore({ dataDir });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, 'team-run');
  apiKey = (await createKey(store, secrets, { platform: 'Anthropic', namespace: 'team-run' }))
    .value;
  await store.close();
  writeFileSync(join(dataDir, 'pepper'), secrets.pepper);
  writeFileSync(join(dataDir, 'credential-key'), secrets.credentialKey.toString('base64'));
  port = await freePort();
  metricsPort = await freePort();
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
      TOLLGATE_METRICS_PORT: String(metricsPort),
      TOLLGATE_PEPPER_FILE: join(dataDir, 'pepper'),
      TOLLGATE_CREDENTIAL_KEY_FILE: join(dataDir, 'credential-key'),
      TOLLGATE_LOG_LEVEL: 'silent',
      TOLLGATE_DRAIN_TIMEOUT_MS: '10000',
    },
  });
  await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
}, 60_000);

afterAll(async () => {
  if (child !== null && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('serves, exposes metrics on its own port and drains a stream on SIGTERM', async () => {
  const started = Date.now();
  const warm = await request(`http://127.0.0.1:${port}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  expect(warm.statusCode).toBe(200);
  await warm.body.text();
  const metrics = await request(`http://127.0.0.1:${metricsPort}/metrics`);
  const metricsText = await metrics.body.text();
  expect(metricsText).toContain(
    'tollgate_requests_total{platform="Anthropic",status_class="2xx"} 1',
  );
  expect(metricsText).toContain('tollgate_process_cpu_seconds_total');

  fake.setBehaviour({ chunkGapMs: 100, chunks: 8 });
  const streaming = await request(`http://127.0.0.1:${port}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  expect(streaming.statusCode).toBe(200);
  const exited = once(child!, 'exit');
  child!.kill('SIGTERM');
  const text = await streaming.body.text();
  expect(text).toContain('event: message_stop');
  const [code] = (await exited) as [number | null];
  expect(code).toBe(0);
  // Drained by the end of the stream, not by the 10 s deadline.
  expect(Date.now() - started).toBeLessThan(8_000);
});
