/**
 * Crash-safe persistence to the data folder: one JSON file per object plus `state.json` holding the
 * last resourceVersion. Every write goes to a temp file, is fsynced, then renamed into place.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
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

export interface PersistedState {
  objects: KubeObject[];
  resourceVersion: number;
}

export class ObjectFiles {
  private readonly directory: string;
  private readonly statePath: string;

  constructor(dataDirectory: string) {
    this.directory = join(dataDirectory, 'objects');
    this.statePath = join(dataDirectory, 'state.json');
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
  }

  private pathOf(key: string): string {
    return join(this.directory, `${encodeURIComponent(key)}.json`);
  }

  load(): PersistedState {
    const objects: KubeObject[] = [];
    for (const name of readdirSync(this.directory)) {
      if (!name.endsWith('.json')) continue;
      const parsed: unknown = JSON.parse(readFileSync(join(this.directory, name), 'utf8'));
      if (isJsonObject(parsed) && isJsonObject(parsed.metadata)) objects.push(parsed as KubeObject);
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
    for (const object of objects) {
      resourceVersion = Math.max(resourceVersion, Number(object.metadata.resourceVersion ?? 0));
    }
    return { objects, resourceVersion };
  }

  save(change: { key: string; object: KubeObject | undefined; resourceVersion: number }): void {
    writeFileAtomically(
      this.statePath,
      JSON.stringify({ resourceVersion: change.resourceVersion }),
    );
    if (change.object === undefined) {
      rmSync(this.pathOf(change.key), { force: true });
      syncDirectory(this.directory);
    } else {
      writeFileAtomically(this.pathOf(change.key), JSON.stringify(change.object));
    }
  }
}
