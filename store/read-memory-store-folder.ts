/**
 * The memory store's data folder, read back: `store.json` (memory-state.ts) with the settlement
 * markers of the journal (settled-marker-journal.ts) put back into their namespaces. A file from
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

export interface MemoryStoreFolder {
  state: MemoryState;
  queue: QueuedUsageEntry[];
  captures: QueuedCapture[];
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
  let text: string;
  try {
    text = await readFile(join(dataDir, MEMORY_STORE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { state: createEmptyState(), queue: [], captures: [], unjournaled: [] };
    }
    throw error;
  }
  const { state, queue, captures, version, beforeLifetimes } = deserializeState(text);
  if (version < 3) return { state, queue, captures, unjournaled: markersInsideState(state) };
  for (const marker of await readSettledMarkers(dataDir, now)) {
    const ns = state.namespaces.get(marker.namespace);
    if (ns === undefined || beforeLifetimes.has(marker.namespace)) continue;
    if (marker.until <= ns.settledPrunedBefore) continue;
    ns.settled.set(marker.requestId, marker.until);
  }
  return { state, queue, captures, unjournaled: [] };
}
