/**
 * The memory store's data folder, read back: `store.json` (memory-state.ts) with the settlement
 * markers of the journal (settled-marker-journal.ts) put back into their namespaces, and the
 * captures waiting for the recorder from `captures.json` (a `store.json` from before that file
 * holds them itself: `capturesInState`). A file from
 * before the journal (version 2) holds its markers itself: they are kept, and handed back as
 * `unjournaled` so the store's first write puts them in the journal.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryState, QueuedUsageEntry } from './memory-state.js';
import { createEmptyState, deserializeState } from './memory-state.js';
import type { QueuedCapture } from './memory-capture-queue.js';
import { readSettledMarkers, type SettledMarker } from './settled-marker-journal.js';

export const MEMORY_STORE_FILE = 'store.json';
export const MEMORY_CAPTURES_FILE = 'captures.json';

export interface MemoryStoreFolder {
  state: MemoryState;
  queue: QueuedUsageEntry[];
  captures: QueuedCapture[];
  /** The captures were read from `store.json` (written before `captures.json`). */
  capturesInState: boolean;
  /** Markers read from a file written before the journal, for the journal's next write. */
  unjournaled: SettledMarker[];
}

function markersInsideState(state: MemoryState): SettledMarker[] {
  const markers: SettledMarker[] = [];
  for (const [namespace, ns] of state.namespaces) {
    for (const [requestId, until] of ns.settled) markers.push({ namespace, requestId, until });
  }
  return markers;
}

export async function readMemoryStoreFolder(
  dataDir: string,
  now: number = Date.now(),
): Promise<MemoryStoreFolder> {
  const text = await readIfPresent(join(dataDir, MEMORY_STORE_FILE));
  const capturesText = await readIfPresent(join(dataDir, MEMORY_CAPTURES_FILE));
  const fileCaptures = capturesText === null ? [] : (JSON.parse(capturesText) as QueuedCapture[]);
  if (text === null) {
    const state = createEmptyState();
    return { state, queue: [], captures: fileCaptures, capturesInState: false, unjournaled: [] };
  }
  const deserialized = deserializeState(text);
  const { state, queue, version, beforeLifetimes } = deserialized;
  const capturesInState = deserialized.captures.length > 0;
  const captures = [...deserialized.captures, ...fileCaptures];
  const read = { state, queue, captures, capturesInState };
  if (version < 3) return { ...read, unjournaled: markersInsideState(state) };
  for (const marker of await readSettledMarkers(dataDir, now)) {
    const ns = state.namespaces.get(marker.namespace);
    if (ns === undefined || beforeLifetimes.has(marker.namespace)) continue;
    if (marker.until <= ns.settledPrunedBefore) continue;
    ns.settled.set(marker.requestId, marker.until);
  }
  return { ...read, unjournaled: [] };
}

/** The file's text; null when there is none. */
async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
