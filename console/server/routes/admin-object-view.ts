/**
 * A resource as the console's administration and notifier routes answer it (`AdminObject`): its
 * name, namespace, uid, resourceVersion, generation, spec and status, nothing else of its metadata.
 */
import type { KubeObject } from '../kubernetes/user-kube.js';
import { generationOf } from '../kubernetes/patch-unless-respecified.js';
import type { AdminObject } from './admin-schemas.js';

export function adminObjectView(object: KubeObject): AdminObject {
  const metadata = object.metadata ?? {};
  const generation = generationOf(object);
  return {
    name: metadata.name ?? '',
    ...(metadata.namespace === undefined ? {} : { namespace: metadata.namespace }),
    uid: metadata.uid ?? '',
    resourceVersion: metadata.resourceVersion ?? '',
    ...(generation === undefined ? {} : { generation }),
    spec: (object.spec ?? {}) as Record<string, unknown>,
    ...(object.status === undefined ? {} : { status: object.status as Record<string, unknown> }),
  };
}
