import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readNumber, type LedgerDatabase } from '../ledger-database.js';
import { openLedgerDatabase } from '../open-ledger-database.js';
import { createTestDatabase } from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import {
  startPostgresInstance,
  type PostgresInstance,
} from '../../test/support/ledger/start-postgres-instance.js';
import { waitUntil } from '../../test/support/ledger/wait-until.js';
import { createRedisRecordSource, RECORD_FIELD } from '../../store/redis-usage-record-source.js';
import { runRecorder } from './run-recorder.js';

async function metricValue(registry: Registry, name: string, stage?: string): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  return (metric?.values ?? [])
    .filter((value) => stage === undefined || value.labels.stage === stage)
    .reduce((sum, value) => sum + value.value, 0);
}

describe('recorder through a PostgreSQL restart under load', () => {
  let server: PostgresInstance;
  let db: LedgerDatabase;
  let redis: Redis;
  let producing = true;
  const stream = `ledger-restart:${randomBytes(4).toString('hex')}:usage`;
  beforeAll(async () => {
    server = await startPostgresInstance();
    const created = await createTestDatabase(server.maintenanceUrl);
    db = await openLedgerDatabase(
      { databaseUrl: created.databaseUrl },
      { onIdleError: () => undefined },
    );
    redis = new Redis(inject('redisUrl'));
  }, 120_000);
  afterAll(async () => {
    producing = false;
    await redis.del(stream);
    redis.disconnect();
    await db.close();
    await server.destroy();
  });

  it('loses nothing and writes nothing twice while the server is down', async () => {
    const registry = new Registry();
    const recorder = runRecorder({
      source: createRedisRecordSource({
        redis,
        listStreams: () => Promise.resolve([stream]),
        consumer: 'recorder-1',
      }),
      db,
      registry,
      batchSize: 50,
      idleMs: 10,
      backlogEveryMs: 0,
      backoff: { initialMs: 50, maxMs: 400 },
      maintenance: false,
    });
    let produced = 0;
    const producer = (async () => {
      while (producing && redis.status !== 'end') {
        const record = makeRecord({
          requestId: `load-${produced}`,
          time: Date.UTC(2026, 0, 15) + produced * 1000,
        });
        await redis.xadd(stream, '*', RECORD_FIELD, JSON.stringify(record));
        produced += 1;
        if (produced % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const inserted = () => metricValue(registry, 'tollgate_recorder_records_inserted_total');
    await waitUntil('records flowing before the outage', async () => (await inserted()) >= 200);

    await server.stop();
    await waitUntil(
      'failed writes while the server is down',
      async () => (await metricValue(registry, 'tollgate_recorder_failures_total', 'write')) >= 2,
    );
    const producedAtOutage = produced;
    await waitUntil('records waiting in the stream', () => produced >= producedAtOutage + 300);
    expect(await metricValue(registry, 'tollgate_recorder_backlog_records')).toBeGreaterThan(0);
    expect(await metricValue(registry, 'tollgate_recorder_lag_seconds')).toBeGreaterThanOrEqual(0);

    const insertedAtRestart = await inserted();
    await server.start();
    await waitUntil(
      'more records after the restart',
      async () => (await inserted()) > insertedAtRestart + 300,
    );
    producing = false;
    await producer;
    await waitUntil('the backlog to drain', async () => (await redis.xlen(stream)) === 0, 60_000);
    await recorder.stop();

    const rows = await db.query<{ n: unknown; distinct_ids: unknown; rollup: unknown }>(
      `SELECT count(*) AS n, count(DISTINCT request_id) AS distinct_ids,
         (SELECT sum(requests) FROM usage_rollups_hourly) AS rollup
       FROM usage_records`,
    );
    expect(readNumber(rows[0]?.n)).toBe(produced);
    expect(readNumber(rows[0]?.distinct_ids)).toBe(produced);
    expect(readNumber(rows[0]?.rollup)).toBe(produced);
    expect(await inserted()).toBe(produced);
  }, 120_000);
});
