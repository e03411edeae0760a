import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readNumber } from '../ledger-database.js';
import {
  LEDGER_KINDS,
  openTestLedger,
  type TestLedger,
} from '../../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';
import { waitUntil } from '../../test/support/ledger/wait-until.js';
import { MemoryRecordQueue } from '../../store/memory-usage-record-source.js';
import { createRedisRecordSource, RECORD_FIELD } from '../../store/redis-usage-record-source.js';
import { runRecorder, type RecorderOptions } from './run-recorder.js';
import { writeEntries } from './write-entries.js';

const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);

async function metricValue(registry: Registry, name: string): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  return (metric?.values ?? []).reduce((sum, value) => sum + value.value, 0);
}

const quick: Partial<RecorderOptions> = {
  idleMs: 20,
  claimEveryMs: 0,
  claimMinIdleMs: 0,
  backlogEveryMs: 0,
  backoff: { initialMs: 20, maxMs: 200 },
  maintenance: false,
};

describe.each(LEDGER_KINDS)('recorder on %s', (kind) => {
  let ledger: TestLedger;
  let redis: Redis;
  const prefix = `ledger-test:${randomBytes(4).toString('hex')}:`;
  const streams = [`${prefix}team-a:usage`, `${prefix}team-b:usage`];
  beforeAll(async () => {
    ledger = await openTestLedger(kind);
    redis = new Redis(inject('redisUrl'));
  });
  afterAll(async () => {
    await redis.del(...streams);
    redis.disconnect();
    await ledger.drop();
  });

  const countRecords = async () =>
    readNumber((await ledger.db.query('SELECT count(*) AS n FROM usage_records'))[0]?.n);

  async function append(count: number, tag: string): Promise<void> {
    for (let index = 0; index < count; index++) {
      const stream = streams[index % 2]!;
      const namespace = index % 2 === 0 ? 'team-a' : 'team-b';
      const record = makeRecord({ requestId: `${tag}-${index}`, namespace, time: T0 + index });
      await redis.xadd(stream, '*', RECORD_FIELD, JSON.stringify(record));
    }
  }

  it('writes each record once when a recorder dies between insert and acknowledge', async () => {
    await append(60, 'crash');
    const source = (consumer: string) =>
      createRedisRecordSource({ redis, listStreams: () => Promise.resolve(streams), consumer });
    // The first recorder reads and commits, then dies before acknowledging.
    const dying = source('recorder-a');
    const batch = await dying.read(1000);
    expect(batch).toHaveLength(60);
    expect((await writeEntries(ledger.db, batch)).inserted).toBe(60);
    expect((await dying.backlog()).entries).toBe(60);

    // A second recorder claims the abandoned entries; the insert is a no-op, then it acknowledges.
    const registry = new Registry();
    const recorder = runRecorder({
      ...quick,
      source: source('recorder-b'),
      db: ledger.db,
      registry,
    });
    await waitUntil('the claimed entries to be acknowledged', async () =>
      (await Promise.all(streams.map((stream) => redis.xlen(stream)))).every((n) => n === 0),
    );
    await recorder.stop();
    expect(await countRecords()).toBe(60);
    expect(await metricValue(registry, 'tollgate_recorder_records_duplicate_total')).toBe(60);
    expect(await metricValue(registry, 'tollgate_recorder_records_inserted_total')).toBe(0);
    const pending = await redis.xpending(streams[0]!, 'tollgate-recorder');
    expect(pending[0]).toBe(0);
  });

  it('drains new records, keeps invalid entries aside, and reads its own pending first after a restart', async () => {
    await append(30, 'fresh');
    await redis.xadd(streams[0]!, '*', RECORD_FIELD, '{"requestId":"broken"}');
    // A recorder restarted under the same name finds its unacknowledged entries again.
    const restarted = createRedisRecordSource({
      redis,
      listStreams: () => Promise.resolve(streams),
      consumer: 'recorder-c',
    });
    const firstRead = await restarted.read(5);
    expect(firstRead).toHaveLength(5);
    const again = createRedisRecordSource({
      redis,
      listStreams: () => Promise.resolve(streams),
      consumer: 'recorder-c',
    });
    expect((await again.read(5)).map((entry) => entry.id)).toEqual(
      firstRead.map((entry) => entry.id),
    );

    const registry = new Registry();
    const recorder = runRecorder({
      ...quick,
      claimMinIdleMs: 60_000,
      source: again,
      db: ledger.db,
      registry,
      batchSize: 7,
    });
    await waitUntil('the streams to drain', async () =>
      (await Promise.all(streams.map((stream) => redis.xlen(stream)))).every((n) => n === 0),
    );
    await recorder.stop();
    expect(await countRecords()).toBe(90);
    expect(await metricValue(registry, 'tollgate_recorder_records_rejected_total')).toBe(1);
    const rejected = await ledger.db.query<{ reason: string }>(
      'SELECT reason FROM usage_rejected_entries',
    );
    expect(rejected).toHaveLength(1);
    // 31 entries in batches of at most 7.
    expect(await metricValue(registry, 'tollgate_recorder_batches_total')).toBeGreaterThanOrEqual(
      5,
    );
  });

  it('uses the same path in memory without Redis', async () => {
    const queue = new MemoryRecordQueue();
    for (let index = 0; index < 25; index++) {
      const record = makeRecord({ requestId: `memory-${index}`, time: T0 + index });
      queue.append('team-a', JSON.stringify(record));
    }
    // A consumer that dies after writing: its entries are claimed by the next one.
    const dying = queue.consumer('memory-a');
    await writeEntries(ledger.db, await dying.read(10));
    const registry = new Registry();
    const recorder = runRecorder({
      ...quick,
      source: queue.consumer('memory-b'),
      db: ledger.db,
      registry,
    });
    await waitUntil('the queue to drain', async () => (await dying.backlog()).entries === 0);
    await recorder.stop();
    expect(await countRecords()).toBe(115);
    expect(await metricValue(registry, 'tollgate_recorder_records_duplicate_total')).toBe(10);
    expect(await metricValue(registry, 'tollgate_recorder_records_inserted_total')).toBe(15);
  });
  it('waits between reads while it keeps up, gathering what arrives meanwhile into one batch', async () => {
    const queue = new MemoryRecordQueue();
    const registry = new Registry();
    const recorder = runRecorder({
      ...quick,
      source: queue.consumer('gather-a'),
      db: ledger.db,
      registry,
      gatherMs: 400,
    });
    // One record every 20 ms for 1.2 s: read at once, each would make a batch of its own.
    for (let index = 0; index < 60; index++) {
      const record = makeRecord({ requestId: `gather-${index}`, time: T0 + index });
      queue.append('team-a', JSON.stringify(record));
      await sleep(20);
    }
    await waitUntil(
      'the trickle to be written',
      async () => (await metricValue(registry, 'tollgate_recorder_records_inserted_total')) === 60,
    );
    await recorder.stop();
    // About one batch per 400 ms of arrivals (and the first record's).
    expect(await metricValue(registry, 'tollgate_recorder_batches_total')).toBeLessThanOrEqual(6);
  });

  it('reads again at once while it is behind (full batches), pausing only once caught up', async () => {
    const queue = new MemoryRecordQueue();
    for (let index = 0; index < 95; index++) {
      const record = makeRecord({ requestId: `behind-${index}`, time: T0 + index });
      queue.append('team-a', JSON.stringify(record));
    }
    const registry = new Registry();
    const started = Date.now();
    const recorder = runRecorder({
      ...quick,
      source: queue.consumer('behind-a'),
      db: ledger.db,
      registry,
      batchSize: 10,
      gatherMs: 5_000,
    });
    await waitUntil(
      'the backlog to be written',
      async () => (await metricValue(registry, 'tollgate_recorder_records_inserted_total')) === 95,
    );
    // Nine full batches back to back, then the partial tenth: no 5 s pause on the way.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await metricValue(registry, 'tollgate_recorder_batches_total')).toBe(10);
    const stopping = Date.now();
    await recorder.stop();
    // Stopping cuts the pause short.
    expect(Date.now() - stopping).toBeLessThan(1_000);
  });
});
