/**
 * A memory store's data folder for tests: read with the store's own reader (`store.json` and the
 * settlement marker journal), or one namespace of `store.json` edited as raw JSON, to write what
 * an older store wrote.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { NamespaceState } from '../../../store/memory-state.js';
import { readMemoryStoreFolder } from '../../../store/read-memory-store-folder.js';

/** The namespace as the store reads its folder; throws when the folder has no such namespace. */
export async function readStoredNamespace(
  dataDir: string,
  namespace: string,
): Promise<NamespaceState> {
  const found = (await readMemoryStoreFolder(dataDir)).state.namespaces.get(namespace);
  if (found === undefined) throw new Error(`no namespace ${namespace} in ${dataDir}`);
  return found;
}

/** Rewrites the file with `edit` applied to the namespace's JSON (Maps are `{"$map": entries}`). */
export function editStoredNamespace(
  file: string,
  namespace: string,
  edit: (fields: Record<string, unknown>) => void,
): void {
  const stored = JSON.parse(readFileSync(file, 'utf8')) as {
    state: { namespaces: { $map: [string, Record<string, unknown>][] } };
  };
  const found = stored.state.namespaces.$map.find(([name]) => name === namespace);
  if (found === undefined) throw new Error(`no namespace ${namespace} in ${file}`);
  edit(found[1]);
  writeFileSync(file, JSON.stringify(stored));
}
