/**
 * Streamed calls whose clients read the response head and then never read again, through a
 * gateway process of its own, from an upstream that would send 64 MB per stream as fast as it is
 * read: back-pressure reaches the upstream (every stream stops, waiting for its socket to drain,
 * after a fraction of what it would send) and the gateway's memory stays bounded (its resident
 * set, read from /proc, grows by a bounded figure).
 *
 * Scaled down from the probe's 200 streams to 50: before a stream stops, the kernel's loopback
 * socket buffers (autotuned up to 4 MB on each side of each hop) take 8 to 9 MB of it, none of it
 * in the gateway's memory, and the gateway meters every byte; 200 streams would pour 1.8 GB
 * through it (25 s on two cores) to show the same stop.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore } from '../../../store/create-store.js';
import { freePort } from '../../support/redis-server.js';
import {
  createKey,
  newSecrets,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { serveEndlessStreams, type EndlessStreams } from './serve-endless-stream.js';
import { spawnRunGateway, waitUntilReady } from './spawn-run-gateway.js';

const STREAMS = 50;
const CAP_BYTES = 64 * 1024 * 1024;
/** What back-pressure may let through per stream: the socket buffers of both hops and queues. */
const MAX_WRITTEN_PER_STREAM = 16 * 1024 * 1024;
/** The gateway's resident set may grow by at most this much for all the held streams. */
const MAX_GROWTH_MB = 100;

const namespace = 'team-unread';
const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-unread-'));
let upstream: EndlessStreams;
let gateway: ChildProcess;
let port: number;
let apiKey: string;
const clients: Socket[] = [];

beforeAll(async () => {
  upstream = await serveEndlessStreams({ capBytes: CAP_BYTES });
  const secrets = newSecrets();
  const store = await createStore({ dataDir });
  await writeUpstreams(store, { secrets, baseURL: upstream.url });
  await writeAccount(store, namespace);
  apiKey = (await createKey(store, secrets, { platform: 'Anthropic', namespace })).value;
  await store.close();
  writeFileSync(join(dataDir, 'pepper'), secrets.pepper);
  writeFileSync(join(dataDir, 'credential-key'), secrets.credentialKey.toString('base64'));
  port = await freePort();
  gateway = spawnRunGateway({
    args: [`--port=${port}`, '--host=127.0.0.1', '--metrics-host=127.0.0.1', '--data-dir', dataDir],
    env: {
      TOLLGATE_METRICS_PORT: String(await freePort()),
      TOLLGATE_PEPPER_FILE: join(dataDir, 'pepper'),
      TOLLGATE_CREDENTIAL_KEY_FILE: join(dataDir, 'credential-key'),
      TOLLGATE_LOG_LEVEL: 'silent',
    },
  });
  await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
}, 60_000);

afterAll(async () => {
  for (const socket of clients) socket.destroy();
  if (gateway.exitCode === null && gateway.signalCode === null) {
    gateway.kill('SIGKILL');
    await once(gateway, 'exit');
  }
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** Sends a streamed call, reads the first chunk (the response head) and then nothing more. */
async function openUnreadStream(): Promise<string> {
  const body = JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 64_000,
    stream: true,
    messages: [{ role: 'user', content: 'stream forever; I will not read it' }],
  });
  const socket = connect(port, '127.0.0.1');
  clients.push(socket);
  socket.on('error', () => undefined);
  socket.write(
    `POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${apiKey}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const [first] = (await once(socket, 'data')) as [Buffer];
  socket.pause();
  return first.toString('latin1').split('\r\n')[0] ?? '';
}

const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

it('stops every upstream at the unread client and keeps the gateway memory bounded', async () => {
  const pid = gateway.pid ?? 0;
  await sleep(1_000);
  const before = residentMb(pid);
  const statusLines = await Promise.all(Array.from({ length: STREAMS }, openUnreadStream));
  expect(new Set(statusLines)).toEqual(new Set(['HTTP/1.1 200 OK']));

  // Wait until the upstreams stand still; a gateway that buffers instead never lets them.
  let last = -1;
  let settledFor = 0;
  const deadline = Date.now() + 10_000;
  while (settledFor < 3 && Date.now() < deadline) {
    await sleep(300);
    const now = total(upstream.written());
    // A gateway that buffers is stopped here, before it holds gigabytes.
    if (Math.max(...upstream.written()) > MAX_WRITTEN_PER_STREAM) break;
    settledFor = now === last ? settledFor + 1 : 0;
    last = now;
  }
  const written = upstream.written();
  const after = residentMb(pid);
  const report = {
    streams: written.length,
    waiting: upstream.waiting(),
    largestStreamMb: Math.max(...written) / 2 ** 20,
    totalMb: total(written) / 2 ** 20,
    residentBeforeMb: before,
    residentAfterMb: after,
  };
  expect(report.streams, JSON.stringify(report)).toBe(STREAMS);
  // Every upstream is held at a drain, long before the end of its 64 MB.
  expect(report.waiting, JSON.stringify(report)).toBe(STREAMS);
  expect(Math.max(...written), JSON.stringify(report)).toBeLessThan(MAX_WRITTEN_PER_STREAM);
  expect(after - before, JSON.stringify(report)).toBeLessThan(MAX_GROWTH_MB);
}, 60_000);
