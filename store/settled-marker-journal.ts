/**
 * The memory store's settlement markers on disk, appended and never rewritten. There is one marker
 * per settled call (settled-markers.ts), so written inside `store.json` they made every write of
 * the file grow with the traffic of the last 15 minutes: at 1,000 calls/s, 900,000 markers and
 * about 50 MB of JSON built on the request thread every 250 ms. Here each write appends only the
 * markers set since the previous one, to a segment per minute of expiry
 * (`settled-markers/<minute>.jsonl`, one `[namespace, requestId, until]` per line), and a segment
 * whose minute has passed is removed whole: every marker in it has expired.
 *
 * A line cut short by a crash is skipped when read, and the next process's first append to that
 * segment starts on a new line. Markers only refuse a settlement retried by
 * the process that holds the store, so one lost with the last write's tail costs nothing that
 * process can still do.
 */
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const SETTLED_MARKERS_FOLDER = 'settled-markers';

const SEGMENT_MS = 60_000;
const SEGMENT_FILE = /^(\d+)\.jsonl$/;

export interface SettledMarker {
  namespace: string;
  requestId: string;
  /** When the marker expires (epoch ms). */
  until: number;
}

export interface SettledMarkerJournal {
  /** Holds a marker set since the last write, until the next `write`. */
  note(marker: SettledMarker): void;
  /**
   * Appends the held markers to their segments, then removes the segments wholly expired by
   * `now`. Writes are serialised by the caller (the memory store's persister).
   */
  write(now: number): Promise<void>;
}

function segmentOf(until: number): number {
  return Math.floor(until / SEGMENT_MS);
}

function parseMarkerLine(line: string): SettledMarker | null {
  try {
    const parsed: unknown = JSON.parse(line);
    if (!Array.isArray(parsed) || parsed.length !== 3) return null;
    const [namespace, requestId, until] = parsed as unknown[];
    if (typeof namespace !== 'string' || typeof requestId !== 'string') return null;
    if (typeof until !== 'number' || !Number.isFinite(until)) return null;
    return { namespace, requestId, until };
  } catch {
    return null;
  }
}

async function appendDurably(path: string, text: string): Promise<void> {
  const file = await open(path, 'a', 0o600);
  try {
    await file.writeFile(text, 'utf8');
    await file.datasync();
  } finally {
    await file.close();
  }
}

/** The segments in the folder, oldest first (none when the folder is absent). */
async function listSegments(folder: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const segments: number[] = [];
  for (const name of names) {
    const match = SEGMENT_FILE.exec(name);
    if (match?.[1] !== undefined) segments.push(Number(match[1]));
  }
  return segments.sort((a, b) => a - b);
}

/**
 * The markers in `dataDir` that have not expired by `now`, in the order they were set (segments
 * by minute of expiry, lines in the order appended).
 */
export async function readSettledMarkers(dataDir: string, now: number): Promise<SettledMarker[]> {
  const folder = join(dataDir, SETTLED_MARKERS_FOLDER);
  const markers: SettledMarker[] = [];
  for (const segment of await listSegments(folder)) {
    if ((segment + 1) * SEGMENT_MS <= now) continue;
    const text = await readFile(join(folder, `${segment}.jsonl`), 'utf8');
    for (const line of text.split('\n')) {
      const marker = line === '' ? null : parseMarkerLine(line);
      if (marker !== null && marker.until > now) markers.push(marker);
    }
  }
  return markers;
}

export async function openSettledMarkerJournal(dataDir: string): Promise<SettledMarkerJournal> {
  const folder = join(dataDir, SETTLED_MARKERS_FOLDER);
  const onDisk = new Set(await listSegments(folder));
  // Segments written before this opened may end in a line cut short by a crash: the first append
  // to each starts on a new line, so the cut line stays alone (and is skipped when read).
  const mayEndCut = new Set(onDisk);
  let held: SettledMarker[] = [];

  async function removeExpired(now: number): Promise<void> {
    for (const segment of onDisk) {
      if ((segment + 1) * SEGMENT_MS > now) continue;
      onDisk.delete(segment);
      await rm(join(folder, `${segment}.jsonl`), { force: true });
    }
  }

  return {
    note(marker) {
      held.push(marker);
    },
    async write(now) {
      const markers = held;
      held = [];
      const lines = new Map<number, string[]>();
      for (const { namespace, requestId, until } of markers) {
        const segment = segmentOf(until);
        let segmentLines = lines.get(segment);
        if (segmentLines === undefined) {
          segmentLines = [];
          lines.set(segment, segmentLines);
        }
        segmentLines.push(JSON.stringify([namespace, requestId, until]));
      }
      if (lines.size > 0) await mkdir(folder, { recursive: true, mode: 0o700 });
      try {
        for (const [segment, segmentLines] of lines) {
          const start = mayEndCut.delete(segment) ? '\n' : '';
          const text = `${start}${segmentLines.join('\n')}\n`;
          await appendDurably(join(folder, `${segment}.jsonl`), text);
          onDisk.add(segment);
        }
      } catch (error) {
        // Held again for the next write; a segment appended before the failure may then hold a
        // marker twice, which reading tolerates (the same id set twice).
        held = [...markers, ...held];
        throw error;
      }
      await removeExpired(now);
    },
  };
}
