import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerDatabase } from './ledger-database.js';
import { readNumber } from './ledger-database.js';
import { openLedgerDatabase } from './open-ledger-database.js';

describe('the embedded ledger in its own thread', () => {
  let dataDir: string;
  let db: LedgerDatabase;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tollgate-ledger-thread-'));
    db = await openLedgerDatabase({ dataDir });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a long statement without holding the caller event loop', async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const rows = await db.query<{ total: unknown }>(
      'SELECT sum(a * b) AS total FROM generate_series(1, 1500) a, generate_series(1, 1500) b',
    );
    const elapsed = performance.now() - started;
    delay.disable();
    expect(readNumber(rows[0]?.total)).toBe(((1500 * 1501) / 2) ** 2);
    // The statement takes a while in WebAssembly; the caller's loop kept turning meanwhile.
    expect(elapsed).toBeGreaterThan(50);
    expect(delay.max / 1e6).toBeLessThan(Math.max(40, elapsed / 2));
  });

  it('reports PostgreSQL errors with their fields', async () => {
    const failed = await db.query('SELECT * FROM no_such_table').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).toMatchObject({ code: '42P01' });
    expect((failed as Error).message).toContain('no_such_table');
  });

  it('keeps a transaction whole while other statements wait for the connection', async () => {
    await db.query('CREATE TABLE thread_probe (n int)');
    const inside = db.transaction(async (tx) => {
      await tx.query('INSERT INTO thread_probe VALUES (1)');
      await new Promise((resume) => setTimeout(resume, 50));
      await tx.query('INSERT INTO thread_probe VALUES (2)');
      throw new Error('roll it back');
    });
    const outside = db.query<{ n: unknown }>('SELECT count(*) AS n FROM thread_probe');
    await expect(inside).rejects.toThrow('roll it back');
    // The statement outside ran after the rollback, never between the transaction's statements.
    expect(readNumber((await outside)[0]?.n)).toBe(0);
  });
});
