/**
 * Captured bodies in the ledger: ingest through `insertCapturedCalls` batches (each capture a
 * request and a response of `--bytes` each), the read of one capture by request id among them, and
 * the retention drop of their expiry days; on PostgreSQL (a database of its own, dropped at the
 * end) and on PGlite (a temporary folder). Captures spread their expiry over `--days` days, as keys
 * with different `retentionDays` would.
 *
 *   npx tsx bench/macro/capture-ledger-bench.ts [--captures 5000] [--batch 100] [--bytes 8192]
 *     [--days 7] [--reads 200] [--engine postgres|pglite|both]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dropExpiredCaptures } from '../../ledger/drop-expired-captures.js';
import { insertCapturedCalls } from '../../ledger/insert-captured-calls.js';
import type { LedgerDatabase } from '../../ledger/ledger-database.js';
import { openLedgerDatabase } from '../../ledger/open-ledger-database.js';
import { readCapturedCall } from '../../ledger/queries/read-captured-call.js';
import type { CapturedCall } from '../../store/captured-call.js';
import { createTestDatabase } from '../../test/support/ledger/ledger-test-databases.js';
import { makeCapturedCall } from '../../test/support/ledger/make-captured-call.js';
import { percentile, sortAscending } from '../support/compute-percentiles.js';

const DAY = 86_400_000;

const { values: args } = parseArgs({
  options: {
    captures: { type: 'string', default: '5000' },
    batch: { type: 'string', default: '100' },
    bytes: { type: 'string', default: '8192' },
    days: { type: 'string', default: '7' },
    reads: { type: 'string', default: '200' },
    engine: { type: 'string', default: 'both' },
  },
});
const count = Number(args.captures);
const batchSize = Number(args.batch);
const bytes = Number(args.bytes);
const days = Number(args.days);

function body(seed: number) {
  const text = JSON.stringify({ seed, text: 'x'.repeat(Math.max(0, bytes - 30)) });
  return {
    text,
    bytes: text.length,
    truncated: false,
    contentType: 'application/json',
    redactions: [],
  };
}

function captureAt(index: number, now: number): CapturedCall {
  return makeCapturedCall({
    requestId: `bench-${index}`,
    keyUid: `key-${index % 50}`,
    at: now,
    expiresAt: now + (1 + (index % days)) * DAY,
    request: body(index),
    response: body(-index),
  });
}

async function run(kind: 'postgres' | 'pglite'): Promise<void> {
  const folder = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'capture-bench-')) : '';
  const created = kind === 'postgres' ? await createTestDatabase() : null;
  const db: LedgerDatabase = await openLedgerDatabase(
    created === null ? { dataDir: folder } : { databaseUrl: created.databaseUrl },
  );
  try {
    const now = Date.now();
    const started = performance.now();
    for (let first = 0; first < count; first += batchSize) {
      const calls = Array.from({ length: Math.min(batchSize, count - first) }, (_, offset) =>
        captureAt(first + offset, now),
      );
      await insertCapturedCalls(db, { calls, now });
    }
    const seconds = (performance.now() - started) / 1000;
    const megabytes = (count * 2 * bytes) / 1e6;
    const reads: number[] = [];
    for (let sample = 0; sample < Number(args.reads); sample++) {
      const index = (sample * 7919) % count;
      const readStarted = performance.now();
      const found = await readCapturedCall(db, {
        namespace: 'team-a',
        keyUid: `key-${index % 50}`,
        requestId: `bench-${index}`,
        now,
      });
      reads.push(performance.now() - readStarted);
      if (found === null) throw new Error(`capture bench-${index} not found`);
    }
    const sorted = sortAscending(reads);
    const dropStarted = performance.now();
    const dropped = await dropExpiredCaptures(db, { now: now + (days + 1) * DAY });
    const dropMs = performance.now() - dropStarted;
    console.log(
      `${kind}: ${count} captures (2 × ${bytes} B) in ${seconds.toFixed(1)} s: ` +
        `${Math.round(count / seconds)} captures/s, ${(megabytes / seconds).toFixed(1)} MB/s; ` +
        `read by id p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p95 ${percentile(sorted, 0.95).toFixed(2)} ms; ` +
        `retention dropped ${dropped} day partitions in ${dropMs.toFixed(0)} ms`,
    );
  } finally {
    await db.close();
    await created?.drop();
    if (folder !== '') rmSync(folder, { recursive: true, force: true });
  }
}

const engines = args.engine === 'both' ? (['postgres', 'pglite'] as const) : [args.engine];
for (const engine of engines) await run(engine as 'postgres' | 'pglite');
