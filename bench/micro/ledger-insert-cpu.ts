/**
 * `npx tsx bench/micro/ledger-insert-cpu.ts [batches] [batchSize] [-- node flags]`: CPU per record
 * of the embedded ledger's insert (PGlite in its worker thread, as `tollgate local` opens it), in
 * batches as the recorder writes them at 1,000 calls/s (250 records: a quarter second's). Prints
 * the CPU of the ledger's thread (from /proc, so another process's load on the machine changes the
 * figure little) and of the calling thread, per record, after a warm-up of a fifth of the batches.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertUsageRecords } from '../../ledger/insert-usage-records.js';
import { openLedgerDatabase } from '../../ledger/open-ledger-database.js';
import { makeRecord } from '../../test/support/ledger/make-record.js';

const batches = Number(process.argv[2] ?? '40');
const batchSize = Number(process.argv[3] ?? '250');
const TICKS = 100;

/** user + system CPU seconds of each thread of this process, by thread id. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(tid, (Number(fields[11]) + Number(fields[12])) / TICKS);
  }
  return out;
}

const folder = mkdtempSync(join(tmpdir(), 'ledger-insert-cpu-'));
const db = await openLedgerDatabase({ dataDir: folder });
const now = Date.now();
let sequence = 0;
const batch = () =>
  Array.from({ length: batchSize }, () =>
    makeRecord({ requestId: `r-${String(sequence++)}`, time: now, namespace: 'probe' }),
  );
const warm = Math.max(1, Math.floor(batches / 5));
for (let i = 0; i < warm; i++) await insertUsageRecords(db, batch());
const before = threadCpu();
const main = process.pid.toString();
for (let i = 0; i < batches; i++) await insertUsageRecords(db, batch());
const after = threadCpu();
let others = 0;
for (const [tid, seconds] of after) if (tid !== main) others += seconds - (before.get(tid) ?? 0);
const mainCpu = (after.get(main) ?? 0) - (before.get(main) ?? 0);
const records = batches * batchSize;
process.stdout.write(
  `${String(records)} records in ${String(batches)} batches of ${String(batchSize)}: ` +
    `other threads ${((others * 1000) / records).toFixed(3)} ms per record, ` +
    `calling thread ${((mainCpu * 1000) / records).toFixed(3)} ms per record\n`,
);
await db.close();
rmSync(folder, { recursive: true, force: true });
