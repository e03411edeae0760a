/**
 * What the event router needs to know about ApiKeys without scanning all of them: which keys read
 * a given Secret (`spec.secretName`, default `<name>-key`), and which keys are currently refused as
 * `DuplicateKey` (they get another chance when a key value changes). Fed with every ApiKey event,
 * resyncs included, so it follows the informer cache.
 */
import type { CachedObject, WatchEventType } from './watch-resources.js';

interface KeyFields {
  spec?: { secretName?: string };
  status?: { conditions?: { type: string; reason?: string }[] };
}

function secretNameOf(object: CachedObject): string {
  return (object as KeyFields).spec?.secretName ?? `${object.metadata.name}-key`;
}

function isDuplicate(object: CachedObject): boolean {
  return (
    (object as KeyFields).status?.conditions?.some(
      (condition) => condition.type === 'Ready' && condition.reason === 'DuplicateKey',
    ) ?? false
  );
}

export interface KeyRef {
  namespace: string;
  name: string;
}

export class KeyReferenceIndex {
  /** `namespace/secretName` -> names of the ApiKeys in that namespace reading it. */
  private readonly readers = new Map<string, Set<string>>();
  /** `namespace/name` -> the Secret the key reads. */
  private readonly secretOf = new Map<string, string>();
  private readonly duplicates = new Map<string, KeyRef>();

  observe(type: WatchEventType, object: CachedObject): void {
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name;
    const id = `${namespace}/${name}`;
    const previous = this.secretOf.get(id);
    const next = type === 'delete' ? undefined : `${namespace}/${secretNameOf(object)}`;
    if (previous !== next) {
      if (previous !== undefined) {
        const names = this.readers.get(previous);
        names?.delete(name);
        if (names?.size === 0) this.readers.delete(previous);
      }
      if (next === undefined) this.secretOf.delete(id);
      else {
        this.secretOf.set(id, next);
        let names = this.readers.get(next);
        if (names === undefined) {
          names = new Set();
          this.readers.set(next, names);
        }
        names.add(name);
      }
    }
    if (type !== 'delete' && isDuplicate(object)) this.duplicates.set(id, { namespace, name });
    else this.duplicates.delete(id);
  }

  readersOf(namespace: string, secretName: string): string[] {
    return [...(this.readers.get(`${namespace}/${secretName}`) ?? [])];
  }

  duplicateKeys(): KeyRef[] {
    return [...this.duplicates.values()];
  }
}
