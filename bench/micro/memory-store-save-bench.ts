/**
 * `npx tsx bench/micro/memory-store-save-bench.ts`: milliseconds of the request thread one write of
 * the memory store costs (local mode writes 250 ms after a change, so under traffic four times a
 * second), with 15 minutes of settlement markers held at 0, 100 and 1,000 calls/s:
 *
 * - `file with markers`: the whole state as one JSON text, markers included (how the store wrote
 *   before the marker journal);
 * - `file + journal`: `store.json` without markers (memory-state.ts `serializeState`) plus the
 *   journal lines of the 250 ms of markers set since the previous write (settled-marker-journal.ts).
 *
 * One account with 20 keys; the median of 5 runs each. Prints one JSON line per marker count and
 * writes them as the raw result `bench/results/<date>T<time>-memory-store-save.json`
 * (write-bench-result.ts).
 */
import { createEmptyState, namespaceState, serializeState } from '../../store/memory-state.js';
import { startBenchRun } from '../support/write-bench-result.js';

const MINUTES = 15;
const RUNS = 5;

function stateWithMarkers(markers: number): ReturnType<typeof createEmptyState> {
  const state = createEmptyState();
  const ns = namespaceState(state, 'team-a');
  ns.countersPresent = true;
  for (let key = 0; key < 20; key++) {
    ns.keys.set(`key-${key}`, {
      used: 1_000_000 * key,
      reserved: 0,
      inFlight: 0,
      windows: { FiveHour: { used: 10, end: Date.now() + 3_600_000 } },
      lastUsed: Date.now(),
      resetToken: null,
    });
  }
  const until = Date.now() + MINUTES * 60_000;
  for (let index = 0; index < markers; index++) {
    ns.settled.set(`req_${index.toString(16).padStart(32, '0')}`, until + index);
  }
  return state;
}

/** How the store wrote before the journal: one replacer over everything, markers included. */
function serializeWithMarkers(state: ReturnType<typeof createEmptyState>): string {
  return JSON.stringify({ version: 2, state, queue: [] }, (_key, value: unknown) => {
    if (value instanceof Map) return { $map: [...value.entries()] };
    if (value instanceof Set) return { $set: [...value.values()] };
    return value;
  });
}

function journalLines(count: number): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    lines.push(JSON.stringify(['team-a', `req_${index.toString(16).padStart(32, '0')}`, index]));
  }
  return `${lines.join('\n')}\n`;
}

function medianMs(work: () => unknown): number {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    work();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[Math.floor(RUNS / 2)] ?? 0) * 100) / 100;
}

const run = startBenchRun('memory-store-save', 'bench/micro/memory-store-save-bench.ts');
const rows: Record<string, number>[] = [];
for (const callsPerSecond of [0, 100, 1_000]) {
  const markers = callsPerSecond * MINUTES * 60;
  const state = stateWithMarkers(markers);
  const perWrite = callsPerSecond / 4;
  const before = medianMs(() => serializeWithMarkers(state));
  const after = medianMs(() => {
    serializeState(state, []);
    journalLines(perWrite);
  });
  const bytes = serializeWithMarkers(state).length;
  const row = {
    callsPerSecond,
    markers,
    fileWithMarkersMs: before,
    fileWithMarkersBytes: bytes,
    fileAndJournalMs: after,
    fileBytes: serializeState(state, []).length,
  };
  rows.push(row);
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
run.write({ runs: rows, minutesOfMarkers: MINUTES, medianOf: RUNS });
