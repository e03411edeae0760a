import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { Registry } from 'prom-client';
import type { CapturedCall } from '../../store/captured-call.js';
import { createMemoryStore } from '../../store/memory-store.js';
import { createRedisStore } from '../../store/redis-store.js';
import type { Store } from '../../store/store.js';
import { startCuttableProxy, type CuttableProxy } from '../../test/support/cuttable-tcp-proxy.js';
import {
  LEDGER_KINDS,
  MAINTENANCE_URL,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeCapturedCall } from '../../test/support/ledger/make-captured-call.js';
import { waitUntil } from '../../test/support/ledger/wait-until.js';
import { readNumber } from '../ledger-database.js';
import { runCaptureRecorder, type CaptureRecorder } from './run-capture-recorder.js';

const DAY = 86_400_000;

function captures(prefix: string, count: number): CapturedCall[] {
  const at = Date.now();
  return Array.from({ length: count }, (_, index) =>
    makeCapturedCall({ requestId: `${prefix}-${index}`, at, expiresAt: at + 3 * DAY }),
  );
}

async function metric(registry: Registry, name: string, stage?: string): Promise<number> {
  const found = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  return (found?.values ?? [])
    .filter((value) => stage === undefined || value.labels.stage === stage)
    .reduce((sum, value) => sum + value.value, 0);
}

const CASES = [
  ...LEDGER_KINDS.map((kind) => ({ kind, store: 'memory' as const })),
  { kind: 'postgres' as const, store: 'redis' as const },
];

describe.each(CASES)('the capture recorder on $kind, from the $store store', (each) => {
  let ledger: TestLedger;
  let store: Store;
  let recorder: CaptureRecorder | undefined;
  beforeAll(async () => {
    ledger = await openTestLedger(each.kind);
    store =
      each.store === 'memory'
        ? await createMemoryStore()
        : await createRedisStore({
            url: inject('redisUrl'),
            prefix: `capture-test:${randomBytes(4).toString('hex')}:`,
          });
  });
  afterEach(async () => {
    await recorder?.stop();
    recorder = undefined;
  });
  afterAll(async () => {
    await store.close();
    await ledger.drop();
  });

  const stored = async (prefix: string) =>
    readNumber(
      (
        await ledger.db.query<{ n: unknown }>(
          'SELECT count(*) AS n FROM captured_calls WHERE request_id LIKE $1',
          [`${prefix}-%`],
        )
      )[0]?.n,
    );

  it('drains the hand-off into the ledger once each and empties the queue', async () => {
    const registry = new Registry();
    const calls = captures('drain', 25);
    for (const call of calls) await store.handOffCapture(call);
    // The same capture handed off twice (a gateway retry) is stored once.
    await store.handOffCapture(calls[0]!);
    recorder = runCaptureRecorder({ source: store, db: ledger.db, registry, batchSize: 10 });
    await waitUntil('the queue drained', async () => (await store.pendingCaptures(1)).length === 0);
    expect(await stored('drain')).toBe(25);
    expect(await metric(registry, 'tollgate_recorder_captures_written_total')).toBe(25);
    expect(await metric(registry, 'tollgate_recorder_captures_duplicate_total')).toBe(1);
  });

  it('drops what is no capture the ledger can hold, and keeps going', async () => {
    const registry = new Registry();
    const [good] = captures('mixed', 1);
    const bad = { ...makeCapturedCall({ requestId: 'mixed-bad' }), expiresAt: 'next week' };
    await store.handOffCapture(bad as unknown as CapturedCall);
    await store.handOffCapture(good!);
    const rejected: string[] = [];
    recorder = runCaptureRecorder({
      source: store,
      db: ledger.db,
      registry,
      onRejected: ({ reason }) => rejected.push(reason),
    });
    await waitUntil('the queue drained', async () => (await store.pendingCaptures(1)).length === 0);
    expect(await stored('mixed')).toBe(1);
    expect(await metric(registry, 'tollgate_recorder_captures_rejected_total')).toBe(1);
    expect(rejected).toEqual([expect.stringContaining('expiresAt')]);
  });
});

describe('the capture recorder while PostgreSQL is cut off', () => {
  let proxy: CuttableProxy;
  let ledger: TestLedger;
  let store: Store;
  beforeAll(async () => {
    const server = new URL(MAINTENANCE_URL);
    proxy = await startCuttableProxy({ host: server.hostname, port: Number(server.port || 5432) });
    ledger = await openTestLedger('postgres', {
      reachThrough: (databaseUrl) => {
        const proxied = new URL(databaseUrl);
        proxied.port = String(proxy.port);
        return proxied.toString();
      },
    });
    store = await createMemoryStore();
  });
  afterAll(async () => {
    proxy.restore();
    await store.close();
    await ledger.drop();
    await proxy.close();
  });

  it('keeps the captures in the store, retries, and writes each once when it is back', async () => {
    const registry = new Registry();
    proxy.cut();
    const calls = captures('cut', 40);
    for (const call of calls.slice(0, 20)) await store.handOffCapture(call);
    const recorder = runCaptureRecorder({
      source: store,
      db: ledger.db,
      registry,
      batchSize: 15,
      backoff: { initialMs: 50, maxMs: 200 },
    });
    try {
      await waitUntil(
        'write failures',
        async () =>
          (await metric(registry, 'tollgate_recorder_captures_failed_total', 'write')) >= 2,
      );
      for (const call of calls.slice(20)) await store.handOffCapture(call);
      // Nothing was acknowledged while the ledger was away.
      expect((await store.pendingCaptures(100)).length).toBe(40);
      proxy.restore();
      await waitUntil(
        'the queue drained',
        async () => (await store.pendingCaptures(1)).length === 0,
      );
    } finally {
      await recorder.stop();
    }
    const rows = await ledger.db.query<{ id: string; n: unknown }>(
      `SELECT request_id AS id, count(*) AS n FROM captured_calls GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toHaveLength(40);
    expect(rows.every((row) => readNumber(row.n) === 1)).toBe(true);
    expect(await metric(registry, 'tollgate_recorder_captures_written_total')).toBe(40);
  });
});
