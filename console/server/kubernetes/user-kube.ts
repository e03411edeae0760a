/**
 * Kubernetes calls as one signed-in user (impersonated), with refusals mapped to console errors,
 * and the access review that decides whether the user may read a namespace's usage.
 */
import type { Identity, KubeClient } from './kube-client.js';
import { mapKubeError } from './map-kube-error.js';
import { resourcePath, type ObjectRef } from './resource-paths.js';

export type KubeObject = Record<string, unknown> & {
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
};

export interface KubeList<T> {
  items: T[];
}

export interface UserKube {
  identity: Identity;
  get<T = KubeObject>(ref: ObjectRef): Promise<T>;
  list<T = KubeObject>(ref: ObjectRef, query?: Record<string, string>): Promise<KubeList<T>>;
  create<T = KubeObject>(ref: ObjectRef, body: unknown): Promise<T>;
  mergePatch<T = KubeObject>(ref: ObjectRef, body: unknown): Promise<T>;
  remove(ref: ObjectRef): Promise<void>;
  /** `SelfSubjectAccessReview` as the user. */
  can(attributes: ResourceAttributes): Promise<boolean>;
}

export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw mapKubeError(error);
  }
}

export function userKube(client: KubeClient, identity: Identity): UserKube {
  const as = { username: identity.username, groups: [...identity.groups] };
  return {
    identity,
    get: (ref) => mapped(() => client.call({ method: 'GET', path: resourcePath(ref), as })),
    list: (ref, query) =>
      mapped(() =>
        client.call({
          method: 'GET',
          path: resourcePath(ref),
          as,
          ...(query === undefined ? {} : { query }),
        }),
      ),
    create: (ref, body) =>
      mapped(() =>
        client.call({ method: 'POST', path: resourcePath({ ...ref, name: undefined }), as, body }),
      ),
    mergePatch: (ref, body) =>
      mapped(() =>
        client.call({
          method: 'PATCH',
          path: resourcePath(ref),
          as,
          body,
          contentType: 'application/merge-patch+json',
        }),
      ),
    remove: async (ref) => {
      await mapped(() => client.call({ method: 'DELETE', path: resourcePath(ref), as }));
    },
    can: async (attributes) => {
      const review = await mapped(() =>
        client.call<{ status?: { allowed?: boolean } }>({
          method: 'POST',
          path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
          as,
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: { resourceAttributes: attributes },
          },
        }),
      );
      return review.status?.allowed === true;
    },
  };
}
