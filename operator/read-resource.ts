/** The edge between cached objects and typed resources: specs are parsed with the CRD zod schemas. */
import {
  accountSpecSchema,
  clusterNotifierSpecSchema,
  notifierSpecSchema,
  type ClusterNotifier,
  type Notifier,
  apiKeySpecSchema,
  groupSpecSchema,
  planSpecSchema,
  upstreamSpecSchema,
  type Account,
  type ApiKey,
  type Group,
  type ObjectMeta,
  type Plan,
  type Upstream,
} from '../crds/schema/resources.js';
import type { CachedObject } from './watch-resources.js';

const SCHEMAS = {
  ApiKey: apiKeySpecSchema,
  Group: groupSpecSchema,
  Upstream: upstreamSpecSchema,
  Account: accountSpecSchema,
  Plan: planSpecSchema,
  Notifier: notifierSpecSchema,
  ClusterNotifier: clusterNotifierSpecSchema,
};

interface KindTypes {
  ApiKey: ApiKey;
  Group: Group;
  Upstream: Upstream;
  Account: Account;
  Plan: Plan;
  Notifier: Notifier;
  ClusterNotifier: ClusterNotifier;
}

function toMeta(object: CachedObject): ObjectMeta {
  const meta = object.metadata;
  const out: ObjectMeta = {
    name: meta.name,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion ?? '',
    generation: meta.generation ?? 0,
    creationTimestamp: toTimeText(meta.creationTimestamp),
  };
  if (meta.namespace !== undefined) out.namespace = meta.namespace;
  if (meta.deletionTimestamp !== undefined)
    out.deletionTimestamp = toTimeText(meta.deletionTimestamp);
  if (meta.labels !== undefined) out.labels = meta.labels;
  if (meta.annotations !== undefined) out.annotations = meta.annotations;
  if (meta.finalizers !== undefined) out.finalizers = meta.finalizers;
  return out;
}

/** Watched objects come as JSON (strings); listed ones may be deserialised (Dates). */
function toTimeText(value: Date | string | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : value.toISOString();
}

export type ReadResult<T> = { ok: true; resource: T } | { ok: false; message: string };

export function readResource<K extends keyof KindTypes>(
  kind: K,
  object: CachedObject,
): ReadResult<KindTypes[K]> {
  const raw = object as CachedObject & { spec?: unknown; status?: unknown };
  const parsed = SCHEMAS[kind].safeParse(raw.spec ?? {});
  if (!parsed.success) return { ok: false, message: parsed.error.message };
  const resource = {
    apiVersion: `tollgate.dev/v1alpha1`,
    kind,
    metadata: toMeta(object),
    spec: parsed.data,
    status: raw.status ?? {},
  };
  return { ok: true, resource: resource as unknown as KindTypes[K] };
}

/** A Secret's data, base64-decoded. */
export interface SecretObject {
  metadata?: {
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; uid: string; name?: string; controller?: boolean }[];
  };
  data?: Record<string, string>;
}

export function decodeSecretData(secret: SecretObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(secret.data ?? {})) {
    out[key] = Buffer.from(value, 'base64').toString('utf8');
  }
  return out;
}

export function creationTime(object: { metadata: { creationTimestamp?: Date | string } }): number {
  const text = toTimeText(object.metadata.creationTimestamp);
  const time = Date.parse(text);
  return Number.isNaN(time) ? 0 : time;
}
