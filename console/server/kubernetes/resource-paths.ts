/** REST paths of the kinds the console edits. */
import { API_GROUP, API_VERSION } from '../../../crds/schema/resources.js';

export const TOLLGATE_PLURALS = {
  ApiKey: 'apikeys',
  Group: 'groups',
  Upstream: 'upstreams',
  Account: 'accounts',
  Plan: 'plans',
  Notifier: 'notifiers',
  ClusterNotifier: 'clusternotifiers',
} as const;

export type ConsoleKind = keyof typeof TOLLGATE_PLURALS | 'Secret' | 'Event' | 'Namespace';

export interface ObjectRef {
  kind: ConsoleKind;
  /** Absent for cluster-scoped kinds. */
  namespace?: string | undefined;
  name?: string | undefined;
}

function segment(value: string): string {
  return encodeURIComponent(value);
}

export function resourcePath(ref: ObjectRef): string {
  const kind = ref.kind;
  const core = kind === 'Secret' || kind === 'Event' || kind === 'Namespace';
  const base = core ? '/api/v1' : `/apis/${API_GROUP}/${API_VERSION}`;
  const plural = core ? `${kind.toLowerCase()}s` : TOLLGATE_PLURALS[kind];
  const scope = ref.namespace === undefined ? '' : `/namespaces/${segment(ref.namespace)}`;
  const name = ref.name === undefined ? '' : `/${segment(ref.name)}`;
  return `${base}${scope}/${plural}${name}`;
}

export const apiVersionOf = (kind: ConsoleKind): string =>
  kind === 'Secret' || kind === 'Event' || kind === 'Namespace'
    ? 'v1'
    : `${API_GROUP}/${API_VERSION}`;
