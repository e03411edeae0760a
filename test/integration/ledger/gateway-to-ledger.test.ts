/**
 * Gateway -> store stream -> recorder -> ledger, end to end, on the memory store (with PGlite, as
 * local mode runs) and on a private Redis (with PostgreSQL, as a cluster runs): every call leaves
 * exactly one row, the rollups and lifetime totals sum to the records and to the store's counters,
 * the key summary reads them in a time zone, and retention drops an old day but not the totals.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../../ledger/apply-retention.js';
import { readNumber } from '../../../ledger/ledger-database.js';
import { queryKeySummary } from '../../../ledger/queries/key-summary.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { buildGateway, createKey, writeAccount } from '../../support/gateway-fixture.js';
import {
  anthropicClient,
  callMessages,
  countRecords,
  startLedgerStack,
  waitUntil,
  type LedgerStack,
} from './ledger-harness.js';

const DAY_MS = 24 * 3600_000;
const ZONE = 'Pacific/Kiritimati';
const SETUPS = [
  { store: 'memory', ledger: 'pglite' },
  { store: 'redis', ledger: 'postgres' },
] as const;

const SUMS = `count(*) AS requests, sum(cost_nano) AS cost, sum(output_tokens) AS output,
  sum(input_uncached_tokens + cache_read_tokens) AS input`;

describe.each(SETUPS)('the usage ledger behind the gateway: $store store, $ledger', (setup) => {
  let redis: RedisServer | null = null;
  let stack: LedgerStack;
  const namespace = `team-ledger-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    if (setup.store === 'redis') redis = await startRedisServer();
    stack = await startLedgerStack({
      store: setup.store,
      ...(redis === null ? {} : { redisUrl: redis.url }),
      ledger: setup.ledger,
      timeZone: ZONE,
    });
    await writeAccount(stack.store, namespace);
  }, 60_000);
  afterAll(async () => {
    await stack.close();
    await redis?.stop();
  });

  it('records every call exactly once, with rollups and totals equal to the records', async () => {
    const keys = [
      await createKey(stack.store, stack.secrets, { platform: 'Anthropic', namespace }),
      await createKey(stack.store, stack.secrets, { platform: 'Anthropic', namespace }),
    ];
    // A call 100 days ago (a gateway whose clock is behind): its record lands in an old partition.
    const old = buildGateway(stack.store, stack.secrets, {
      clock: () => Date.now() - 100 * DAY_MS,
    });
    const oldAnswer = await old.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { 'content-type': 'application/json', 'x-api-key': keys[0]!.value },
      payload: JSON.stringify({
        model: 'claude-haiku-4-5',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'old' }],
      }),
    });
    expect(oldAnswer.statusCode).toBe(200);
    await old.close();
    const requestIds = [String(oldAnswer.headers['x-tollgate-request-id'])];

    stack.startRecorder();
    const calls = Array.from({ length: 24 }, (_unused, index) => index);
    for (const index of calls) {
      const client = anthropicClient(stack, keys[index % 2]!.value);
      const model = index % 3 === 0 ? 'claude-sonnet-4-5' : 'claude-haiku-4-5';
      requestIds.push(await callMessages(client, { model, stream: index % 2 === 0 }));
    }
    const { db } = stack.ledger;
    await waitUntil(async () => (await countRecords(db, namespace)) >= requestIds.length);
    await waitUntil(
      async () => (await stack.store.pendingUsageRecords(namespace, 10)).length === 0,
    );

    const rows = await db.query('SELECT request_id FROM usage_records WHERE namespace = $1', [
      namespace,
    ]);
    expect(rows.map((row) => String(row.request_id)).sort()).toEqual([...requestIds].sort());
    expect(await stack.store.pendingUsageRecords(namespace, 10)).toEqual([]);

    const [records] = await db.query(`SELECT ${SUMS} FROM usage_records WHERE namespace = $1`, [
      namespace,
    ]);
    const [rollups] = await db.query(
      `SELECT sum(requests) AS requests, sum(cost_nano) AS cost, sum(output_tokens) AS output,
        sum(input_uncached_tokens + cache_read_tokens) AS input
       FROM usage_rollups_hourly WHERE namespace = $1`,
      [namespace],
    );
    for (const column of ['requests', 'cost', 'output', 'input']) {
      expect(readNumber(rollups?.[column])).toBe(readNumber(records?.[column]));
    }
    expect(readNumber(records?.requests)).toBe(25);
    const [totals] = await db.query(
      'SELECT sum(requests) AS requests, sum(cost_nano) AS cost FROM usage_totals WHERE namespace = $1',
      [namespace],
    );
    const spent = (await stack.store.accountCounters(namespace)).spentNano;
    expect(spent).toBeGreaterThan(0);
    expect(readNumber(totals?.cost)).toBe(spent);
    expect(readNumber(totals?.requests)).toBe(25);

    const now = Date.now();
    const perKey = await db.query(
      'SELECT key_uid, sum(cost_nano) AS cost FROM usage_records WHERE namespace = $1 GROUP BY 1',
      [namespace],
    );
    for (const key of keys) {
      const counters = await stack.store.keyCounters(namespace, key.policy.keyUid, now);
      const row = perKey.find((candidate) => candidate.key_uid === key.policy.keyUid);
      expect(readNumber(row?.cost)).toBe(counters.usedNano);
    }

    const summary = await queryKeySummary(db, {
      namespace,
      keyUid: keys[1]!.policy.keyUid,
      now,
      timeZone: ZONE,
    });
    expect(summary.today.requests).toBe(12);
    expect(summary.daily).toHaveLength(30);
    const inserted = await stack.registry.getSingleMetricAsString(
      'tollgate_recorder_records_inserted_total',
    );
    expect(inserted).toMatch(/ 25$/m);

    // Retention drops the day 100 days back; the lifetime totals (the account's spend) stay.
    await applyRetention(db, { now, retentionDays: 90, timeZone: ZONE });
    expect(await countRecords(db, namespace)).toBe(24);
    const [kept] = await db.query(
      'SELECT sum(cost_nano) AS cost FROM usage_totals WHERE namespace = $1',
      [namespace],
    );
    expect(readNumber(kept?.cost)).toBe(spent);
  }, 60_000);
});
