import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  openSettledMarkerJournal,
  readSettledMarkers,
  SETTLED_MARKERS_FOLDER,
} from './settled-marker-journal.js';

const folders: string[] = [];
function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-marker-journal-'));
  folders.push(folder);
  return folder;
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const MINUTE = 60_000;
const NOW = 1_800_000_000_000;

describe('the settlement marker journal', () => {
  it('appends only what was noted since the last write, and reads it back in order', async () => {
    const dataDir = dataFolder();
    const journal = await openSettledMarkerJournal(dataDir);
    journal.note({ namespace: 'a', requestId: 'r1', until: NOW + 15 * MINUTE });
    journal.note({ namespace: 'b', requestId: 'r2', until: NOW + 15 * MINUTE + 1 });
    await journal.write(NOW);
    journal.note({ namespace: 'a', requestId: 'r3', until: NOW + 16 * MINUTE });
    await journal.write(NOW);
    await journal.write(NOW);
    expect(await readSettledMarkers(dataDir, NOW)).toEqual([
      { namespace: 'a', requestId: 'r1', until: NOW + 15 * MINUTE },
      { namespace: 'b', requestId: 'r2', until: NOW + 15 * MINUTE + 1 },
      { namespace: 'a', requestId: 'r3', until: NOW + 16 * MINUTE },
    ]);
    // One segment per minute of expiry.
    expect(readdirSync(join(dataDir, SETTLED_MARKERS_FOLDER))).toHaveLength(2);
  });

  it('removes a segment once its minute has passed, and reads no expired marker', async () => {
    const dataDir = dataFolder();
    const journal = await openSettledMarkerJournal(dataDir);
    journal.note({ namespace: 'a', requestId: 'old', until: NOW + MINUTE });
    journal.note({ namespace: 'a', requestId: 'new', until: NOW + 20 * MINUTE });
    await journal.write(NOW);
    expect(readdirSync(join(dataDir, SETTLED_MARKERS_FOLDER))).toHaveLength(2);
    const later = NOW + 3 * MINUTE;
    expect((await readSettledMarkers(dataDir, later)).map((m) => m.requestId)).toEqual(['new']);
    // A journal opened later (a restart) knows the segments on disk and removes the passed one.
    const reopened = await openSettledMarkerJournal(dataDir);
    await reopened.write(later);
    expect(readdirSync(join(dataDir, SETTLED_MARKERS_FOLDER))).toHaveLength(1);
  });

  it('skips a line cut short by a crash and any line that is not a marker', async () => {
    const dataDir = dataFolder();
    const journal = await openSettledMarkerJournal(dataDir);
    journal.note({ namespace: 'a', requestId: 'kept', until: NOW + 15 * MINUTE });
    await journal.write(NOW);
    const [segment] = readdirSync(join(dataDir, SETTLED_MARKERS_FOLDER));
    const path = join(dataDir, SETTLED_MARKERS_FOLDER, segment ?? '');
    appendFileSync(path, '["a","x",1]\n{"not":"a marker"}\n["a","torn",18000');
    // The next process appends after the cut line, not onto it.
    const restarted = await openSettledMarkerJournal(dataDir);
    restarted.note({ namespace: 'a', requestId: 'after', until: NOW + 15 * MINUTE + 2 });
    await restarted.write(NOW);
    expect((await readSettledMarkers(dataDir, NOW)).map((m) => m.requestId)).toEqual([
      'kept',
      'after',
    ]);
  });

  it('reads nothing from a folder without a journal', async () => {
    expect(await readSettledMarkers(dataFolder(), NOW)).toEqual([]);
  });
});
