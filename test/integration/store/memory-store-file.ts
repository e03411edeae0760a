/**
 * A memory store's `store.json` for tests: read with the store's own reader (`deserializeState`),
 * or one namespace of it edited as raw JSON, to write what an older store wrote.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { deserializeState, type NamespaceState } from '../../../store/memory-state.js';

/** The namespace as the store reads the file; throws when the file has no such namespace. */
export function readStoredNamespace(file: string, namespace: string): NamespaceState {
  const found = deserializeState(readFileSync(file, 'utf8')).state.namespaces.get(namespace);
  if (found === undefined) throw new Error(`no namespace ${namespace} in ${file}`);
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
