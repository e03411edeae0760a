/**
 * Crash-safe persistence to the data folder, with group commit. Changes are written to
 * `journal.jsonl` in batches, one O_DSYNC positional write per batch. A batch is acknowledged only
 * once it and every batch appended before it are on disk, so a caller may append the next batch
 * before the previous one has finished (the object store does not: with two batches in flight,
 * batches got smaller and the process spent 10-15 % more CPU per key in a bulk import, with no
 * shorter wait for a single client). Each batch ends with a trailer line holding its line count and
 * a hash chained over every batch before it, so loading replays whole batches in order and stops
 * at the first one that is missing, torn or does not follow the one before (a later batch written
 * before a crash whose earlier batch was not is never applied).
 *
 * The journal is compacted into the snapshot, one JSON file per object in `objects/` plus
 * `state.json` holding the last resourceVersion: at start, at close, and in the background when it
 * grows large. A compaction first rotates the journal to `journal.old.jsonl` (once every write in
 * flight has finished), which is deleted only once every file it covers is synced; loading replays
 * the old journal, then the current one, over the files.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { KubeObject } from './kube-object.js';
import { isJsonObject } from './kube-object.js';
import {
  chainHash,
  JOURNAL_FLAGS,
  JOURNAL_HEADER,
  readJournal,
  trailerOf,
  type JournalEnd,
  type JournalLine,
} from './object-journal.js';
import { syncDirectoryAsync, writeFileDurably } from './write-files-durably.js';

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

const ignore = (): undefined => undefined;

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
  /** Where the next batch goes and what it chains to. */
  private next: JournalEnd = { offset: 0, hash: '' };
  /** Set when a batch failed: the next batch is placed where the failed one was. */
  private broken = false;
  /** Opening, placing batches and rotating, one after another in call order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Positional writes not yet finished. */
  private readonly writing = new Set<Promise<unknown>>();
  /** Settles when the last batch appended is on disk with every earlier one (rejects otherwise). */
  private lastDurable: Promise<void> = Promise.resolve();
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
      for (const line of readJournal(path).lines) {
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

  /** One batch's positional write (tests delay it to order two writes in flight). */
  protected writeAt(journal: FileHandle, buffer: Buffer, offset: number): Promise<unknown> {
    return journal.write(buffer, 0, buffer.length, offset);
  }

  /** Counts a write as in flight until it settles. */
  private track(write: Promise<unknown>): Promise<unknown> {
    this.writing.add(write);
    void write.then(
      () => this.writing.delete(write),
      () => this.writing.delete(write),
    );
    return write;
  }

  /** Runs `step` after every step queued before it, whatever their outcome. */
  private serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(ignore);
    return run;
  }

  /**
   * Opens the journal. One left by a crash is cut after its last whole batch (a later batch written
   * after a torn one would never be replayed) and the next batch chains to it.
   */
  private async openJournal(): Promise<FileHandle> {
    if (this.journal !== null) return this.journal;
    const created = !existsSync(this.journalPath);
    // O_DSYNC: a write returns once its data is on disk, so a batch costs one call to the
    // thread pool instead of a write and then an fdatasync (two turns of the event loop).
    const journal = await open(this.journalPath, JOURNAL_FLAGS, 0o600);
    try {
      const end = created ? { offset: 0, hash: '' } : readJournal(this.journalPath).end;
      if ((await journal.stat()).size > end.offset) {
        await journal.truncate(end.offset);
        await journal.datasync();
      }
      if (created) await syncDirectoryAsync(join(this.journalPath, '..'));
      this.next = end;
      this.journalBytes = end.offset;
    } catch (error) {
      await journal.close();
      throw error;
    }
    this.journal = journal;
    return journal;
  }

  /**
   * After a failed batch: once every write in flight has finished, the journal is opened again and
   * cut after its last whole batch (before the failed one), and the next batch goes there.
   */
  private async rewind(previous: Promise<void>): Promise<void> {
    await Promise.allSettled([...this.writing]);
    await previous.catch(ignore);
    const journal = this.journal;
    this.journal = null;
    await journal?.close().catch(ignore);
    await this.openJournal();
    this.broken = false;
  }

  /**
   * Appends a batch of changes durably: one positional O_DSYNC write. Resolves once the batch and
   * every batch appended before it are on disk; rejects when this one or an earlier one failed
   * (the caller appends those changes again, in order).
   */
  append(changes: readonly ObjectChange[]): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    let lines = '';
    for (const change of changes) {
      if (change.json !== undefined && change.object !== undefined) {
        // The same text as JSON.stringify of the JournalLine, without encoding the object again.
        lines += `{"key":${JSON.stringify(change.key)},"rv":${String(change.resourceVersion)},"object":${change.json}}\n`;
      } else {
        const line: JournalLine = {
          key: change.key,
          rv: change.resourceVersion,
          object: change.object ?? null,
        };
        lines += `${JSON.stringify(line)}\n`;
      }
    }
    const previous = this.lastDurable;
    const placed = this.serial(async () => {
      const rewound = this.broken;
      if (rewound) await this.rewind(previous);
      const journal = await this.openJournal();
      for (const change of changes) this.journaled.add(change.key);
      const hash = chainHash(this.next.hash, lines);
      const header = this.next.hash === '' ? JOURNAL_HEADER : '';
      const buffer = Buffer.from(`${header}${lines}${trailerOf(changes.length, hash)}`);
      const offset = this.next.offset;
      this.next = { offset: offset + buffer.length, hash };
      this.journalBytes = this.next.offset;
      const write = this.track(this.writeAt(journal, buffer, offset));
      return { write, rewound };
    });
    const durable = (async () => {
      try {
        const { write, rewound } = await placed;
        const results = await Promise.allSettled([write, rewound ? undefined : previous]);
        // Acknowledged only after every earlier batch: a later batch alone is never replayed.
        for (const result of results) if (result.status === 'rejected') throw result.reason;
      } catch (error) {
        // The next batch goes where this one was, once every write in flight has finished.
        this.broken = true;
        throw error;
      }
    })();
    this.lastDurable = durable;
    return durable;
  }

  /** True when the journal is large enough for a background compaction. */
  get wantsCompaction(): boolean {
    return this.compaction === null && this.journalBytes > COMPACT_AFTER_BYTES;
  }

  /**
   * Rotates the journal once the writes in flight have finished and writes the objects it covers
   * to their files. Appends made during the rotation wait for it; `rotated` resolves once it is
   * done, `done` once the files are synced and the old journal is gone.
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
      // After every batch placed so far has been written; appends made meanwhile wait, then go to
      // the new journal. The snapshot is taken now, so later changes go to the new journal only.
      const snapshot = await this.serial(async () => {
        await Promise.allSettled([...this.writing]);
        const taken = [...this.journaled].map((key) => {
          const object = current(key);
          return { key, text: object === undefined ? undefined : JSON.stringify(object) };
        });
        this.journaled.clear();
        try {
          await this.journal?.close();
          this.journal = null;
          this.next = { offset: 0, hash: '' };
          this.journalBytes = 0;
          if (existsSync(this.oldJournalPath) && existsSync(this.journalPath)) {
            // A compaction that failed left its journal: the current one goes after it, up to its
            // last whole batch (replay of the old journal stops at the first torn one).
            const whole = readJournal(this.journalPath).end.offset;
            const old = await open(this.oldJournalPath, 'a', 0o600);
            try {
              await old.writeFile((await readFile(this.journalPath)).subarray(0, whole));
              await old.sync();
            } finally {
              await old.close();
            }
            await rm(this.journalPath);
          } else if (existsSync(this.journalPath)) {
            await rename(this.journalPath, this.oldJournalPath);
          }
        } catch (error) {
          for (const item of taken) this.journaled.add(item.key);
          throw error;
        } finally {
          markRotated();
        }
        return taken;
      });
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
    await this.queue;
    await Promise.allSettled([...this.writing]);
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
