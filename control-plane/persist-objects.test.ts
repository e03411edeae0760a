import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from './kube-object.js';
import { objectName } from './kube-object.js';
import { ObjectFiles } from './persist-objects.js';

const folders: string[] = [];
function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'tollgate-journal-'));
  folders.push(path);
  return path;
}
afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

function secret(name: string, version: number, value = 'a'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'default', resourceVersion: String(version) },
    data: { value: Buffer.from(value).toString('base64') },
  };
}

const names = (objects: KubeObject[]) => objects.map((object) => object.metadata.name).sort();

describe('ObjectFiles journal', () => {
  it('replays appended batches after a restart, deletions included, without compaction', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    await files.append([
      { key: 'k/a', object: secret('a', 1), resourceVersion: 1 },
      { key: 'k/b', object: secret('b', 2), resourceVersion: 2 },
    ]);
    await files.append([
      { key: 'k/a', object: undefined, resourceVersion: 3 },
      { key: 'k/b', object: secret('b', 4, 'changed'), resourceVersion: 4 },
    ]);
    // No close: as after a crash, only the journal holds the changes.
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['b']);
    expect(state.objects[0]?.metadata.resourceVersion).toBe('4');
    expect(state.resourceVersion).toBe(4);
    expect(readdirSync(join(data, 'objects'))).toEqual([]);
  });

  it('stops at a torn last line (a batch that was never acknowledged)', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    await files.append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }]);
    appendFileSync(join(data, 'journal.jsonl'), '{"key":"k/b","rv":2,"object":{"apiVer');
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['a']);
    expect(state.resourceVersion).toBe(1);
  });

  it('compacts the journal into one file per object and removes it', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    const current = new Map<string, KubeObject>([
      ['k/a', secret('a', 1)],
      ['k/b', secret('b', 2)],
    ]);
    await files.append(
      [...current].map(([key, object], index) => ({
        key,
        object,
        resourceVersion: index + 1,
      })),
    );
    await files.compact((key) => current.get(key), 2).done;
    await files.close();
    expect(existsSync(join(data, 'journal.jsonl'))).toBe(false);
    expect(existsSync(join(data, 'journal.old.jsonl'))).toBe(false);
    expect(readdirSync(join(data, 'objects'))).toHaveLength(2);
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['a', 'b']);
    expect(state.resourceVersion).toBe(2);
  });

  it('keeps objects whose names are too long for a plain file name', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    const long = `long-${'x'.repeat(245)}`;
    const others = ['a', 'b'].map((name) => `${long.slice(0, 200)}${name}`);
    const current = new Map<string, KubeObject>(
      [long, ...others].map((name, index) => [`k/${name}`, secret(name, index + 1)]),
    );
    await files.append(
      [...current].map(([key, object], index) => ({ key, object, resourceVersion: index + 1 })),
    );
    await files.compact((key) => current.get(key), 3).done;
    await files.close();
    expect(readdirSync(join(data, 'objects'))).toHaveLength(3);
    expect(names(new ObjectFiles(data).load().objects)).toEqual([long, ...others].sort());
  });

  it('replays a journal left by a compaction that did not finish, then the current one', async () => {
    const data = folder();
    writeFileSync(
      join(data, 'journal.old.jsonl'),
      `${JSON.stringify({ key: 'k/a', rv: 1, object: secret('a', 1, 'old') })}\n`,
    );
    const files = new ObjectFiles(data);
    await files.append([{ key: 'k/a', object: secret('a', 2, 'new'), resourceVersion: 2 }]);
    const state = new ObjectFiles(data).load();
    expect(state.objects).toHaveLength(1);
    expect(state.objects[0]?.metadata.resourceVersion).toBe('2');
  });

  it('acknowledges a batch only once every batch appended before it is on disk', async () => {
    const data = folder();
    const files = new HeldFiles(data, 1);
    const order: string[] = [];
    const first = files
      .append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }])
      .then(() => order.push('a'));
    const second = files
      .append([{ key: 'k/b', object: secret('b', 2), resourceVersion: 2 }])
      .then(() => order.push('b'));
    // The second batch is on disk while the first is still being written.
    await files.written(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    files.release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a', 'b']);
    expect(names(new ObjectFiles(data).load().objects)).toEqual(['a', 'b']);
  });

  it('replays no batch written after one a crash left unwritten', async () => {
    const data = folder();
    const files = new HeldFiles(data, 2);
    await files.append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }]);
    const never = files.append([{ key: 'k/b', object: secret('b', 2), resourceVersion: 2 }]);
    const after = files.append([{ key: 'k/c', object: secret('c', 3), resourceVersion: 3 }]);
    let acknowledged = false;
    void Promise.all([never, after]).then(() => {
      acknowledged = true;
    });
    // The third batch is on disk at its offset, past a hole where the second never arrived:
    // the process dies here.
    await files.written(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(acknowledged).toBe(false);
    expect(journalOf(data)).toContain('"name":"c"');
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['a']);
    expect(state.resourceVersion).toBe(1);
    // The next start writes its batches after the last whole one.
    const restarted = new ObjectFiles(data);
    restarted.load();
    await restarted.append([{ key: 'k/d', object: secret('d', 4), resourceVersion: 4 }]);
    expect(names(new ObjectFiles(data).load().objects)).toEqual(['a', 'd']);
  });

  it('replays no batch after a missing one (a later batch on disk, an earlier one not)', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    await files.append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }]);
    await files.append([{ key: 'k/b', object: secret('b', 2), resourceVersion: 2 }]);
    await files.append([{ key: 'k/c', object: secret('c', 3), resourceVersion: 3 }]);
    // As after a crash between two positional writes: the second batch never reached the disk.
    const [first, second] = batchRanges(journalOf(data));
    zero(data, second?.start ?? 0, second?.end ?? 0);
    expect(first).toBeDefined();
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['a']);
    expect(state.resourceVersion).toBe(1);
  });

  it('applies no part of a torn batch', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    await files.append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }]);
    await files.append([
      { key: 'k/b', object: secret('b', 2), resourceVersion: 2 },
      { key: 'k/c', object: secret('c', 3), resourceVersion: 3 },
    ]);
    // Only the first page of the second batch reached the disk: its first line is whole.
    const [, second] = batchRanges(journalOf(data));
    const text = journalOf(data);
    const firstLineEnd = text.indexOf('\n', second?.start ?? 0) + 1;
    zero(data, firstLineEnd, second?.end ?? 0);
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['a']);
    expect(state.resourceVersion).toBe(1);
  });

  it('stops at a batch whose hash does not follow the batch before', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    await files.append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }]);
    await files.append([{ key: 'k/b', object: secret('b', 2), resourceVersion: 2 }]);
    await files.append([{ key: 'k/c', object: secret('c', 3), resourceVersion: 3 }]);
    // Still valid JSON, but not what was written.
    writeFileSync(join(data, 'journal.jsonl'), journalOf(data).replace('"name":"b"', '"name":"x"'));
    expect(names(new ObjectFiles(data).load().objects)).toEqual(['a']);
  });

  it('appends after the last whole batch of a journal a crash cut, not after its torn tail', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    await files.append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }]);
    appendFileSync(join(data, 'journal.jsonl'), '{"key":"k/b","rv":2,"object":{"apiVer');
    // The next start journals its own changes before compacting.
    const restarted = new ObjectFiles(data);
    restarted.load();
    await restarted.append([{ key: 'k/c', object: secret('c', 3), resourceVersion: 3 }]);
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['a', 'c']);
    expect(state.resourceVersion).toBe(3);
  });

  it('after a failed write, writes the next batch where the failed one was', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    await files.append([{ key: 'k/a', object: secret('a', 1), resourceVersion: 1 }]);
    // The journal's descriptor goes bad under it: the next write fails.
    await (files as unknown as { journal: FileHandle }).journal.close();
    const failed = files.append([{ key: 'k/b', object: secret('b', 2), resourceVersion: 2 }]);
    const later = files.append([{ key: 'k/c', object: secret('c', 3), resourceVersion: 3 }]);
    await expect(failed).rejects.toThrow();
    // A batch placed behind a failed one is not acknowledged either.
    await expect(later).rejects.toThrow();
    await files.append([
      { key: 'k/b', object: secret('b', 2), resourceVersion: 2 },
      { key: 'k/c', object: secret('c', 3), resourceVersion: 3 },
    ]);
    const state = new ObjectFiles(data).load();
    expect(names(state.objects)).toEqual(['a', 'b', 'c']);
    expect(state.resourceVersion).toBe(3);
    expect(batchRanges(journalOf(data))).toHaveLength(2);
  });

  it('writes large batches two in flight, replays every one, and appends after them on restart', async () => {
    const data = folder();
    const files = new ObjectFiles(data);
    const value = (index: number) => `${String(index)}-${'v'.repeat(100_000)}`;
    // About 10 MB of batches, two in flight at a time.
    for (let index = 0; index < 100; index += 2) {
      await Promise.all(
        [index, index + 1].map((at) =>
          files.append([
            {
              key: `k/s${String(at)}`,
              object: secret(`s${String(at)}`, at + 1, value(at)),
              resourceVersion: at + 1,
            },
          ]),
        ),
      );
    }
    const bytes = readFileSync(join(data, 'journal.jsonl'));
    // The journal ends with the last batch's trailer.
    expect(bytes.lastIndexOf(0x0a) + 1).toBe(bytes.length);
    const state = new ObjectFiles(data).load();
    expect(state.objects).toHaveLength(100);
    expect(state.resourceVersion).toBe(100);
    for (const object of state.objects) {
      const index = Number(objectName(object).slice(1));
      const data = (object.data as { value: string }).value;
      expect(Buffer.from(data, 'base64').toString()).toBe(value(index));
    }
    // A restart writes the next batch after the last one.
    const restarted = new ObjectFiles(data);
    restarted.load();
    await restarted.append([{ key: 'k/t', object: secret('t', 101), resourceVersion: 101 }]);
    const after = new ObjectFiles(data).load();
    expect(after.objects).toHaveLength(101);
    expect(after.resourceVersion).toBe(101);
  });
});

/**
 * Real files, with one batch held before its write until released: batch number `held` (counting
 * from 1) waits, the others go to disk at once.
 */
class HeldFiles extends ObjectFiles {
  private count = 0;
  private readonly done = new Set<number>();
  private releaseHeld: () => void = () => undefined;
  private readonly watchers: { number: number; resolve: () => void }[] = [];

  constructor(
    data: string,
    private readonly held: number,
  ) {
    super(data);
  }

  protected override async writeAt(
    journal: FileHandle,
    buffer: Buffer,
    offset: number,
  ): Promise<unknown> {
    const number = ++this.count;
    if (number === this.held) {
      await new Promise<void>((resolve) => {
        this.releaseHeld = resolve;
      });
    }
    const result = await super.writeAt(journal, buffer, offset);
    this.done.add(number);
    for (const watcher of this.watchers) if (this.done.has(watcher.number)) watcher.resolve();
    return result;
  }

  /** Resolves once batch `number` is written. */
  written(number: number): Promise<void> {
    if (this.done.has(number)) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ number, resolve }));
  }

  /** Lets the held batch write. */
  release(): void {
    this.releaseHeld();
  }
}

function journalOf(data: string): string {
  return readFileSync(join(data, 'journal.jsonl'), 'latin1');
}

/** Byte ranges of the journal's batches: each ends with its trailer line. */
function batchRanges(text: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  let start = text.startsWith('{"journal":2}\n') ? '{"journal":2}\n'.length : 0;
  let at = start;
  while (at < text.length) {
    const end = text.indexOf('\n', at) + 1;
    if (end === 0) break;
    if (text.slice(at, end).startsWith('{"batch":')) {
      ranges.push({ start, end });
      start = end;
    }
    at = end;
  }
  return ranges;
}

/** Overwrites a byte range of the journal with zeros, as a write that never reached the disk. */
function zero(data: string, start: number, end: number): void {
  const path = join(data, 'journal.jsonl');
  const bytes = readFileSync(path);
  bytes.fill(0, start, end);
  writeFileSync(path, bytes);
}
