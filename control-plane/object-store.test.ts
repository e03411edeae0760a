import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ObjectStore } from './object-store.js';
import { ObjectFiles } from './persist-objects.js';
import { loadResourceKinds } from './resource-kinds.js';

const folders: string[] = [];
afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

const kinds = loadResourceKinds();
const namespaceKind = kinds.find((kind) => kind.kind === 'Namespace');
const secretKind = kinds.find((kind) => kind.kind === 'Secret');
const options = { dryRun: false, strictFields: false };

describe('ObjectStore journal batches', () => {
  it('publishes every change once, in resourceVersion order, after it is on disk', async () => {
    if (namespaceKind === undefined || secretKind === undefined) throw new Error('kinds');
    const data = mkdtempSync(join(tmpdir(), 'tollgate-store-'));
    folders.push(data);
    const store = new ObjectStore({ kinds, files: new ObjectFiles(data), watchWindow: 10_000 });
    store.ensure(namespaceKind, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default' },
    });
    await store.durable();
    const published: number[] = [];
    const onDiskWhenPublished: boolean[] = [];
    store.hub.subscribe((event) => {
      published.push(event.resourceVersion);
      if (event.resourceVersion % 50 === 0) {
        // What a watcher sees is what a restart after a crash would load.
        const loaded = new ObjectFiles(data).load();
        onDiskWhenPublished.push(loaded.resourceVersion >= event.resourceVersion);
      }
    });
    const first = store.resourceVersion;
    // Changes in many turns: batches overlap (two in flight) while later ones are made.
    const acknowledged: Promise<void>[] = [];
    for (let turn = 0; turn < 40; turn++) {
      for (let index = 0; index < 5; index++) {
        store.create(secretKind, {
          namespace: 'default',
          body: {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: `s-${String(turn)}-${String(index)}` },
            data: { value: 'YQ==' },
          },
          options,
        });
      }
      acknowledged.push(store.durable());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(acknowledged);
    const expected = Array.from({ length: 200 }, (_, index) => first + index + 1);
    expect(published).toEqual(expected);
    expect(onDiskWhenPublished.every(Boolean)).toBe(true);
    // No close: as after a crash, only the journal holds the secrets.
    const state = new ObjectFiles(data).load();
    expect(state.objects.filter((object) => object.kind === 'Secret')).toHaveLength(200);
    expect(state.resourceVersion).toBe(first + 200);
  });
});
