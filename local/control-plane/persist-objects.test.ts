import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from './kube-object.js';
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
});
