/**
 * Crash-safe persistence to the data folder, with group commit. Changes are appended to
 * `journal.jsonl` in batches, one O_DSYNC write per batch (every change made while the
 * previous batch was being synced), so a bulk of writes costs a few syncs instead of several per
 * object. The journal is compacted into the snapshot, one JSON file per object in `objects/` plus
 * `state.json` holding the last resourceVersion: at start, at close, and in the background when it
 * grows large. A compaction first rotates the journal to `journal.old.jsonl`, which is deleted only
 * once every file it covers is synced; loading replays the old journal, then the current one, over
 * the files, and stops at a torn last line.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { constants } from 'node:fs';
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { KubeObject } from './kube-object.js';
import { isJsonObject } from './kube-object.js';

function syncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function writeFileAtomically(path: string, content: string, mode = 0o600): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDirectory(join(path, '..'));
}

/** The same without blocking the event loop; the caller syncs the directory once for many files. */
async function writeFileDurably(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

async function syncDirectoryAsync(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface PersistedState {
  objects: KubeObject[];
  resourceVersion: number;
}

export interface ObjectChange {
  key: string;
  /** The object as stored; undefined when it was deleted. */
  object: KubeObject | undefined;
  resourceVersion: number;
  /** `JSON.stringify(object)` when the caller has it already (it is shared with watch events). */
  json?: string;
}

interface JournalLine {
  key: string;
  rv: number;
  object: KubeObject | null;
}

const JOURNAL_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_DSYNC;

/** Journal bytes after which a background compaction starts. */
const COMPACT_AFTER_BYTES = 32 * 1024 * 1024;
/**
 * Object files written at once by a compaction. Each write is a few calls to libuv's thread pool
 * (4 threads by default); a background compaction leaves threads free for the journal's appends,
 * which every write request waits for (with 8, a compaction during a bulk import delayed them).
 */
const COMPACT_PARALLEL = 2;

export class ObjectFiles {
  private readonly directory: string;
  private readonly statePath: string;
  private readonly journalPath: string;
  private readonly oldJournalPath: string;
  private journal: FileHandle | null = null;
  private journalBytes = 0;
  /** Keys written to the journal since the last compaction started. */
  private readonly journaled = new Set<string>();
  private compaction: Promise<void> | null = null;

  constructor(dataDirectory: string) {
    this.directory = join(dataDirectory, 'objects');
    this.statePath = join(dataDirectory, 'state.json');
    this.journalPath = join(dataDirectory, 'journal.jsonl');
    this.oldJournalPath = join(dataDirectory, 'journal.old.jsonl');
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
  }

  private pathOf(key: string): string {
    return join(this.directory, fileNameOf(key));
  }

  load(): PersistedState {
    // By file name: a journal line names its object's file through its key.
    const byFile = new Map<string, KubeObject>();
    for (const name of readdirSync(this.directory)) {
      if (!name.endsWith('.json')) continue;
      const parsed: unknown = JSON.parse(readFileSync(join(this.directory, name), 'utf8'));
      if (isJsonObject(parsed) && isJsonObject(parsed.metadata)) {
        byFile.set(name, parsed as KubeObject);
      }
    }
    let resourceVersion = 0;
    try {
      const state: unknown = JSON.parse(readFileSync(this.statePath, 'utf8'));
      if (isJsonObject(state) && typeof state.resourceVersion === 'number') {
        resourceVersion = state.resourceVersion;
      }
    } catch {
      // First start: no state yet.
    }
    for (const path of [this.oldJournalPath, this.journalPath]) {
      for (const line of readJournal(path)) {
        if (line.object === null) byFile.delete(fileNameOf(line.key));
        else byFile.set(fileNameOf(line.key), line.object);
        this.journaled.add(line.key);
        resourceVersion = Math.max(resourceVersion, line.rv);
      }
    }
    const objects = [...byFile.values()];
    for (const object of objects) {
      resourceVersion = Math.max(resourceVersion, Number(object.metadata.resourceVersion ?? 0));
    }
    return { objects, resourceVersion };
  }

  /** Appends a batch of changes durably: one synchronous-data write (O_DSYNC). */
  async append(changes: readonly ObjectChange[]): Promise<void> {
    if (changes.length === 0) return;
    let text = '';
    for (const change of changes) {
      if (change.json !== undefined && change.object !== undefined) {
        // The same text as JSON.stringify of the JournalLine, without encoding the object again.
        text += `{"key":${JSON.stringify(change.key)},"rv":${String(change.resourceVersion)},"object":${change.json}}\n`;
      } else {
        const line: JournalLine = {
          key: change.key,
          rv: change.resourceVersion,
          object: change.object ?? null,
        };
        text += `${JSON.stringify(line)}\n`;
      }
      this.journaled.add(change.key);
    }
    if (this.journal === null) {
      const created = !existsSync(this.journalPath);
      // O_DSYNC: a write returns once its data is on disk, so a batch costs one call to the
      // thread pool instead of a write and then an fdatasync (two turns of the event loop).
      this.journal = await open(this.journalPath, JOURNAL_FLAGS, 0o600);
      this.journalBytes = (await this.journal.stat()).size;
      if (created) await syncDirectoryAsync(join(this.journalPath, '..'));
    }
    await this.journal.write(text);
    this.journalBytes += Buffer.byteLength(text);
  }

  /** True when the journal is large enough for a background compaction. */
  get wantsCompaction(): boolean {
    return this.compaction === null && this.journalBytes > COMPACT_AFTER_BYTES;
  }

  /**
   * Rotates the journal and writes the objects it covers to their files. The caller makes sure no
   * append runs during the rotation (it awaits the returned `rotated`); `done` resolves once the
   * files are synced and the old journal is gone.
   */
  compact(
    current: (key: string) => KubeObject | undefined,
    resourceVersion: number,
  ): { rotated: Promise<void>; done: Promise<void> } {
    const previous = this.compaction ?? Promise.resolve();
    let markRotated: () => void = () => undefined;
    const rotated = new Promise<void>((resolve) => {
      markRotated = resolve;
    });
    const done = previous.then(async () => {
      // The snapshot is taken now, so later changes go to the new journal only.
      const snapshot = [...this.journaled].map((key) => {
        const object = current(key);
        return { key, text: object === undefined ? undefined : JSON.stringify(object) };
      });
      this.journaled.clear();
      try {
        await this.journal?.close();
        this.journal = null;
        this.journalBytes = 0;
        if (existsSync(this.oldJournalPath) && existsSync(this.journalPath)) {
          // A compaction that failed left its journal: the current one goes after it.
          const old = await open(this.oldJournalPath, 'a', 0o600);
          try {
            await old.writeFile(await readFile(this.journalPath));
            await old.sync();
          } finally {
            await old.close();
          }
          await rm(this.journalPath);
        } else if (existsSync(this.journalPath)) {
          await rename(this.journalPath, this.oldJournalPath);
        }
      } catch (error) {
        for (const item of snapshot) this.journaled.add(item.key);
        throw error;
      } finally {
        markRotated();
      }
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < snapshot.length) {
          const item = snapshot[next++];
          if (item === undefined) break;
          if (item.text === undefined) await rm(this.pathOf(item.key), { force: true });
          else await writeFileDurably(this.pathOf(item.key), item.text);
        }
      };
      try {
        await Promise.all(Array.from({ length: COMPACT_PARALLEL }, worker));
      } catch (error) {
        // Still covered by the old journal; the next compaction writes these objects again.
        for (const item of snapshot) this.journaled.add(item.key);
        throw error;
      }
      await syncDirectoryAsync(this.directory);
      await writeFileDurably(this.statePath, JSON.stringify({ resourceVersion }));
      await rm(this.oldJournalPath, { force: true });
      await syncDirectoryAsync(join(this.statePath, '..'));
    });
    // A failed compaction is retried by the next one; only the caller of this one sees the error.
    this.compaction = done
      .catch(() => undefined)
      .finally(() => {
        if (this.compaction === tracked) this.compaction = null;
      });
    const tracked = this.compaction;
    return { rotated, done };
  }

  async close(): Promise<void> {
    await this.compaction;
    await this.journal?.close();
    this.journal = null;
  }
}

/**
 * An object's file: its key, URI-encoded. Names near the 253 characters Kubernetes allows would
 * pass the file system's 255 bytes, so long ones are cut and told apart by a hash of the key.
 */
function fileNameOf(key: string): string {
  const encoded = encodeURIComponent(key);
  if (encoded.length <= 200) return `${encoded}.json`;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `${encoded.slice(0, 160)}~${hash}.json`;
}

function readJournal(path: string): JournalLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const lines: JournalLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      break; // a torn last line: the batch it belonged to was never acknowledged
    }
    if (!isJsonObject(parsed) || typeof parsed.key !== 'string' || typeof parsed.rv !== 'number') {
      break;
    }
    const object = isJsonObject(parsed.object) ? (parsed.object as KubeObject) : null;
    lines.push({ key: parsed.key, rv: parsed.rv, object });
  }
  return lines;
}
