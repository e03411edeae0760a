/**
 * The few Kubernetes API calls the operator makes, over @kubernetes/client-node: status merge
 * patches (status subresource only), finalizer patches, key Secret creation.
 */
import {
  ApiException,
  CoreV1Api,
  CoreV1Event,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  V1EventSource,
  V1ObjectMeta,
  V1ObjectReference,
  type KubeConfig,
  type V1Secret,
} from '@kubernetes/client-node';
import { API_GROUP, API_VERSION } from '../crds/schema/resources.js';

export const PLURALS = {
  ApiKey: 'apikeys',
  Group: 'groups',
  Upstream: 'upstreams',
  Account: 'accounts',
  Plan: 'plans',
  Notifier: 'notifiers',
  ClusterNotifier: 'clusternotifiers',
} as const;
export type TollgateKind = keyof typeof PLURALS;

export interface ObjectRef {
  kind: TollgateKind;
  namespace: string | undefined;
  name: string;
}

export interface OperatorEvent {
  involvedObject: { apiVersion: string; kind: string; name: string; uid: string };
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  time: Date;
}

export function isStatusCode(error: unknown, code: number): boolean {
  return error instanceof ApiException && error.code === code;
}

export class KubernetesApi {
  readonly custom: CustomObjectsApi;
  readonly core: CoreV1Api;

  constructor(kubeConfig: KubeConfig) {
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** A merge patch on `/status`. */
  async patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<void> {
    await this.patch(ref, { body: { status }, strategy: PatchStrategy.MergePatch, status: true });
  }

  /** Adds the finalizer with a merge patch guarded by resourceVersion (optimistic concurrency). */
  async addFinalizer(
    ref: ObjectRef,
    current: { finalizers: readonly string[]; resourceVersion: string; finalizer: string },
  ): Promise<void> {
    const body = {
      metadata: {
        resourceVersion: current.resourceVersion,
        finalizers: [...current.finalizers, current.finalizer],
      },
    };
    await this.patch(ref, { body, strategy: PatchStrategy.MergePatch, status: false });
  }

  /** Removes the finalizer with a JSON patch that first tests the current list. */
  async removeFinalizer(
    ref: ObjectRef,
    current: { finalizers: readonly string[]; finalizer: string },
  ): Promise<void> {
    const body = [
      { op: 'test', path: '/metadata/finalizers', value: current.finalizers },
      {
        op: 'replace',
        path: '/metadata/finalizers',
        value: current.finalizers.filter((item) => item !== current.finalizer),
      },
    ];
    await this.patch(ref, { body, strategy: PatchStrategy.JsonPatch, status: false });
  }

  async createSecret(namespace: string, secret: V1Secret): Promise<void> {
    await this.core.createNamespacedSecret({ namespace, body: secret });
  }

  /** Records an Event (in `namespace`: cluster-scoped objects have none of their own). */
  async createEvent(namespace: string, event: OperatorEvent): Promise<void> {
    const { involvedObject, time } = event;
    const suffix = `${time.getTime().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`;
    const body = Object.assign(new CoreV1Event(), {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: Object.assign(new V1ObjectMeta(), {
        name: `${involvedObject.name}.${suffix}`,
        namespace,
      }),
      involvedObject: Object.assign(new V1ObjectReference(), involvedObject),
      type: event.type,
      reason: event.reason,
      message: event.message,
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      source: Object.assign(new V1EventSource(), { component: 'tollgate-operator' }),
      reportingComponent: 'tollgate-operator',
    });
    await this.core.createNamespacedEvent({ namespace, body });
  }

  private async patch(
    ref: ObjectRef,
    request: { body: object; strategy: PatchStrategy; status: boolean },
  ): Promise<void> {
    const options = setHeaderOptions('Content-Type', request.strategy);
    const base = {
      group: API_GROUP,
      version: API_VERSION,
      plural: PLURALS[ref.kind],
      name: ref.name,
      body: request.body,
    };
    if (ref.namespace === undefined) {
      if (request.status) await this.custom.patchClusterCustomObjectStatus(base, options);
      else await this.custom.patchClusterCustomObject(base, options);
      return;
    }
    const namespaced = { ...base, namespace: ref.namespace };
    if (request.status) await this.custom.patchNamespacedCustomObjectStatus(namespaced, options);
    else await this.custom.patchNamespacedCustomObject(namespaced, options);
  }
}
