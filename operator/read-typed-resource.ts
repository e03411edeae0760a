/** Typed reads from the informer cache; objects whose spec does not parse count as absent. */
import type {
  Account,
  ApiKey,
  ClusterNotifier,
  Group,
  Notifier,
  Plan,
  Upstream,
} from '../crds/schema/resources.js';
import type { OperatorContext } from './operator-context.js';
import { readResource } from './read-resource.js';

interface KindTypes {
  ApiKey: ApiKey;
  Group: Group;
  Upstream: Upstream;
  Account: Account;
  Plan: Plan;
  Notifier: Notifier;
  ClusterNotifier: ClusterNotifier;
}

export function readResourceOrNull<K extends keyof KindTypes>(
  context: OperatorContext,
  kind: K,
  ref: { name: string; namespace?: string },
): KindTypes[K] | null {
  const object = context.cache.get(kind, ref.name, ref.namespace);
  if (object === undefined) return null;
  const read = readResource(kind, object);
  return read.ok ? read.resource : null;
}
