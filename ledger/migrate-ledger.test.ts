import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsageRecords } from './insert-usage-records.js';
import { readNumber, type LedgerDatabase } from './ledger-database.js';
import { migrateLedger } from './migrate-ledger.js';
import { openLedgerDatabase } from './open-ledger-database.js';
import { createTestDatabase } from '../test/support/ledger/ledger-test-databases.js';
import { makeRecord } from '../test/support/ledger/make-record.js';

describe('ledger migrations on PostgreSQL', () => {
  let created: Awaited<ReturnType<typeof createTestDatabase>>;
  const opened: LedgerDatabase[] = [];
  beforeAll(async () => {
    created = await createTestDatabase();
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await created.drop();
  });

  it('applies each migration once when several processes start at the same time', async () => {
    const location = { databaseUrl: created.databaseUrl };
    const pools = await Promise.all(
      Array.from({ length: 4 }, () => openLedgerDatabase(location, { migrate: false })),
    );
    opened.push(...pools);
    const applied = await Promise.all(pools.map((db) => migrateLedger(db)));
    // Exactly one migrator applied the migrations; the others waited for its lock, then found none.
    expect(applied.flat()).toEqual([
      '0001-usage-records',
      '0002-quota-resets',
      '0003-upstream-attempts',
      '0004-account-rollups',
      '0005-token-counts-out-of-rollups',
      '0006-record-owner',
      '0007-captured-calls',
    ]);
    const rows = await pools[0]!.query<{ n: unknown }>(
      'SELECT count(*) AS n FROM ledger_migration',
    );
    expect(readNumber(rows[0]?.n)).toBe(7);
  });
});

describe('the embedded ledger in the data folder', () => {
  it('keeps its records across a reopen of the same folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-ledger-reopen-'));
    try {
      const first = await openLedgerDatabase({ dataDir });
      await insertUsageRecords(first, [makeRecord({ requestId: 'kept-1' })]);
      await first.close();
      const second = await openLedgerDatabase({ dataDir });
      const rows = await second.query<{ n: unknown }>('SELECT count(*) AS n FROM usage_records');
      expect(await migrateLedger(second)).toEqual([]);
      await second.close();
      expect(readNumber(rows[0]?.n)).toBe(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
