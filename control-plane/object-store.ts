/**
 * The objects, in memory, with the API server's write semantics: one global resourceVersion,
 * optimistic concurrency, generation on spec changes only, status through its own subresource,
 * finalizers, owner-reference garbage collection and namespace deletion. A change applies in memory
 * at once; it is journaled with the other changes of the same moment (group commit, see
 * persist-objects.ts) and published to watchers once synced. The server acknowledges a request only
 * after `durable()`, so nothing a client was told is lost by a crash.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { admitObject } from './admit-object.js';
import { alreadyExists, badRequest, conflict, invalid, notFound } from './api-errors.js';
import type { JsonObject, KubeObject } from './kube-object.js';
import {
  finalizersOf,
  isJsonObject,
  jsonEqual,
  objectName,
  objectNamespace,
  stringField,
} from './kube-object.js';
import type { ObjectChange, ObjectFiles } from './persist-objects.js';
import type { ResourceKind } from './resource-kind.js';
import { apiVersionOf } from './resource-kinds.js';
import type { Matcher } from './select-objects.js';
import type { ChangeEvent, EventType } from './watch-hub.js';
import { WatchHub } from './watch-hub.js';

export interface ObjectRef {
  namespace: string | undefined;
  name: string;
}

export interface WriteOptions {
  dryRun: boolean;
  strictFields: boolean;
}

const systemFields = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'generation',
  'deletionGracePeriodSeconds',
];

export function collectionOf(kind: ResourceKind): string {
  return `${kind.group}/${kind.plural}`;
}

function keyOf(kind: ResourceKind, ref: ObjectRef): string {
  return `${collectionOf(kind)}/${ref.namespace ?? ''}/${ref.name}`;
}

export class ObjectStore {
  readonly hub: WatchHub;
  private readonly objects = new Map<string, KubeObject>();
  private readonly kinds: readonly ResourceKind[];
  private readonly files: ObjectFiles;
  private version: number;
  /** Changes applied in memory, not yet handed to the journal. */
  private pending: { change: ObjectChange; event: ChangeEvent }[] = [];
  /** Resolves when everything committed so far is synced; null when nothing is outstanding. */
  private flushing: Promise<void> | null = null;
  private syncedVersion: number;
  private waiters: { version: number; resolve: () => void; reject: (error: unknown) => void }[] =
    [];

  constructor(options: {
    kinds: readonly ResourceKind[];
    files: ObjectFiles;
    watchWindow: number;
  }) {
    this.kinds = options.kinds;
    this.files = options.files;
    const state = options.files.load();
    this.version = state.resourceVersion;
    this.syncedVersion = state.resourceVersion;
    for (const object of state.objects) {
      const kind = this.kindOf(object);
      if (kind !== undefined) this.objects.set(keyOf(kind, refOf(object)), object);
    }
    this.hub = new WatchHub({ size: options.watchWindow, startVersion: this.version });
  }

  get resourceVersion(): number {
    return this.version;
  }

  private kindOf(object: KubeObject): ResourceKind | undefined {
    return this.kinds.find(
      (kind) => kind.kind === object.kind && apiVersionOf(kind) === object.apiVersion,
    );
  }

  get(kind: ResourceKind, ref: ObjectRef): KubeObject {
    const object = this.objects.get(keyOf(kind, ref));
    if (object === undefined)
      throw notFound({ group: kind.group, kind: kind.kind, name: ref.name }, kind.plural);
    return structuredClone(object);
  }

  exists(kind: ResourceKind, ref: ObjectRef): boolean {
    return this.objects.has(keyOf(kind, ref));
  }

  list(kind: ResourceKind, where: { namespace: string | undefined; match: Matcher }): KubeObject[] {
    const prefix = `${collectionOf(kind)}/${where.namespace ?? ''}`;
    const out: KubeObject[] = [];
    for (const [key, object] of this.objects) {
      if (!key.startsWith(`${collectionOf(kind)}/`)) continue;
      if (where.namespace !== undefined && !key.startsWith(`${prefix}/`)) continue;
      if (where.match(object)) out.push(structuredClone(object));
    }
    return out.sort((a, b) => keyOf(kind, refOf(a)).localeCompare(keyOf(kind, refOf(b))));
  }

  create(
    kind: ResourceKind,
    request: { namespace: string | undefined; body: KubeObject; options: WriteOptions },
  ): KubeObject {
    const body = structuredClone(request.body);
    const metadata: JsonObject = isJsonObject(body.metadata) ? body.metadata : {};
    const bodyNamespace = stringField(metadata, 'namespace');
    if (kind.namespaced) {
      if (
        bodyNamespace !== undefined &&
        request.namespace !== undefined &&
        bodyNamespace !== request.namespace
      ) {
        throw badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      const namespace = request.namespace ?? bodyNamespace ?? 'default';
      this.requireNamespace(namespace);
      metadata.namespace = namespace;
    } else {
      delete metadata.namespace;
    }
    const generateName = stringField(metadata, 'generateName');
    if (stringField(metadata, 'name') === undefined && generateName !== undefined) {
      metadata.name = `${generateName}${randomBytes(4).toString('hex').slice(0, 5)}`;
    }
    for (const field of [...systemFields, 'resourceVersion'])
      Reflect.deleteProperty(metadata, field);
    metadata.uid = randomUUID();
    metadata.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    if (kind.tracksGeneration) metadata.generation = 1;
    body.metadata = metadata;
    if (kind.tracksGeneration) delete body.status;
    const admitted = admitObject({
      kind,
      object: body,
      old: undefined,
      strictFields: request.options.strictFields,
    });
    const ref = refOf(admitted);
    if (this.objects.has(keyOf(kind, ref))) {
      throw alreadyExists({ group: kind.group, kind: kind.kind, name: ref.name }, kind.plural);
    }
    return request.options.dryRun
      ? admitted
      : this.commit({ kind, object: admitted, type: 'ADDED' });
  }

  update(
    kind: ResourceKind,
    request: { ref: ObjectRef; body: KubeObject; status: boolean; options: WriteOptions },
  ): KubeObject {
    const old = this.get(kind, request.ref);
    const body = structuredClone(request.body);
    const metadata: JsonObject = isJsonObject(body.metadata) ? body.metadata : {};
    const target = { group: kind.group, kind: kind.kind, name: request.ref.name };
    const wanted = stringField(metadata, 'resourceVersion');
    if ((wanted === undefined || wanted === '') && kind.tracksGeneration) {
      // Custom resources do not allow unconditional updates (the CRD strategy of the API server).
      throw invalid({ ...target, kind: kind.plural }, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0x0: must be specified for an update',
          field: 'metadata.resourceVersion',
        },
      ]);
    }
    if (wanted !== undefined && wanted !== '' && wanted !== old.metadata.resourceVersion) {
      throw conflict(target, kind.plural);
    }
    const bodyName = stringField(metadata, 'name');
    if (bodyName !== undefined && bodyName !== request.ref.name) {
      throw badRequest(
        `the name of the object (${bodyName}) does not match the name on the URL (${request.ref.name})`,
      );
    }
    let candidate: KubeObject;
    if (request.status) {
      candidate = structuredClone(old);
      if (body.status === undefined) delete candidate.status;
      else candidate.status = body.status;
    } else {
      candidate = body;
      for (const field of systemFields) {
        const value = old.metadata[field];
        if (value === undefined) Reflect.deleteProperty(metadata, field);
        else metadata[field] = value;
      }
      metadata.name = request.ref.name;
      if (request.ref.namespace !== undefined) metadata.namespace = request.ref.namespace;
      candidate.metadata = metadata;
      if (kind.tracksGeneration) {
        if (old.status === undefined) delete candidate.status;
        else candidate.status = old.status;
      }
    }
    candidate.metadata.resourceVersion = old.metadata.resourceVersion ?? '0';
    const admitted = admitObject({
      kind,
      object: candidate,
      old,
      strictFields: request.options.strictFields,
    });
    if (kind.tracksGeneration && !jsonEqual(old.spec, admitted.spec)) {
      admitted.metadata.generation = Number(old.metadata.generation ?? 0) + 1;
    }
    if (jsonEqual(admitted, old) || request.options.dryRun) return admitted;
    if (
      stringField(admitted.metadata, 'deletionTimestamp') !== undefined &&
      finalizersOf(admitted).length === 0
    ) {
      return this.remove(kind, admitted);
    }
    return this.commit({ kind, object: admitted, type: 'MODIFIED' });
  }

  delete(kind: ResourceKind, request: { ref: ObjectRef; options: WriteOptions }): KubeObject {
    const old = this.get(kind, request.ref);
    if (request.options.dryRun) return old;
    if (finalizersOf(old).length > 0) {
      if (stringField(old.metadata, 'deletionTimestamp') !== undefined) return old;
      old.metadata.deletionTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      old.metadata.deletionGracePeriodSeconds = 0;
      return this.commit({ kind, object: old, type: 'MODIFIED' });
    }
    return this.remove(kind, old);
  }

  private remove(kind: ResourceKind, object: KubeObject): KubeObject {
    const removed = this.commit({ kind, object, type: 'DELETED' });
    const uid = stringField(object.metadata, 'uid');
    for (const other of [...this.objects.values()]) {
      const otherKind = this.kindOf(other);
      if (otherKind === undefined || !this.objects.has(keyOf(otherKind, refOf(other)))) continue;
      const owned =
        Array.isArray(other.metadata.ownerReferences) &&
        other.metadata.ownerReferences.some((owner) => isJsonObject(owner) && owner.uid === uid);
      const inNamespace =
        kind.kind === 'Namespace' && objectNamespace(other) === objectName(object);
      if (owned || inNamespace) {
        this.delete(otherKind, {
          ref: refOf(other),
          options: { dryRun: false, strictFields: false },
        });
      }
    }
    return removed;
  }

  private requireNamespace(namespace: string): void {
    const namespaceKind = this.kinds.find((kind) => kind.kind === 'Namespace');
    if (namespaceKind !== undefined)
      this.get(namespaceKind, { namespace: undefined, name: namespace });
  }

  /**
   * `change.object` becomes the stored object: every caller passes one of its own making (a copy
   * from `get`, or the admitted copy of a request body) and does not touch it afterwards.
   */
  private commit(change: { kind: ResourceKind; object: KubeObject; type: EventType }): KubeObject {
    this.version += 1;
    const object = change.object;
    object.metadata.resourceVersion = String(this.version);
    const key = keyOf(change.kind, refOf(object));
    const stored = change.type === 'DELETED' ? undefined : object;
    if (stored === undefined) this.objects.delete(key);
    else this.objects.set(key, stored);
    this.pending.push({
      change: { key, object: stored, resourceVersion: this.version },
      event: {
        type: change.type,
        collection: collectionOf(change.kind),
        object,
        resourceVersion: this.version,
      },
    });
    this.flushing ??= this.flush();
    return structuredClone(object);
  }

  /** Journals the pending changes batch after batch until none is left, then publishes them. */
  private async flush(): Promise<void> {
    // Let the rest of this tick (and the requests already read) add to the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      for (const item of batch) {
        const json = JSON.stringify(item.event.object);
        item.event.json = json;
        if (item.change.object !== undefined) item.change.json = json;
      }
      try {
        await this.files.append(batch.map((item) => item.change));
      } catch (error) {
        // Kept for the next attempt (the next change retries); whoever waits is told now.
        this.pending = [...batch, ...this.pending];
        const waiters = this.waiters;
        this.waiters = [];
        for (const waiter of waiters) waiter.reject(error);
        break;
      }
      this.syncedVersion = batch[batch.length - 1]?.change.resourceVersion ?? this.syncedVersion;
      for (const item of batch) this.hub.publish(item.event);
      const waiters = this.waiters;
      this.waiters = [];
      for (const waiter of waiters) {
        if (waiter.version <= this.syncedVersion) waiter.resolve();
        else this.waiters.push(waiter);
      }
      if (this.files.wantsCompaction) {
        const compaction = this.files.compact((key) => this.objects.get(key), this.version);
        // In the background: a failure leaves the old journal, which the next compaction retries.
        compaction.done.catch(() => undefined);
        await compaction.rotated;
      }
    }
    this.flushing = null;
  }

  /** Resolves once every change committed so far is synced to the journal (and published). */
  durable(): Promise<void> {
    const version = this.version;
    if (this.syncedVersion >= version) return Promise.resolve();
    this.flushing ??= this.flush();
    return new Promise((resolve, reject) => {
      this.waiters.push({ version, resolve, reject });
    });
  }

  /** Writes the journal into the object files; at start and at close. */
  async compact(): Promise<void> {
    await this.durable();
    await this.files.compact((key) => this.objects.get(key), this.version).done;
  }

  async close(): Promise<void> {
    await this.compact();
    await this.files.close();
  }

  /** Start-up: objects the control plane always has (namespaces default and tollgate-system). */
  ensure(kind: ResourceKind, object: KubeObject): void {
    if (!this.objects.has(keyOf(kind, refOf(object)))) {
      this.create(kind, {
        namespace: undefined,
        body: object,
        options: { dryRun: false, strictFields: false },
      });
    }
  }
}

function refOf(object: KubeObject): ObjectRef {
  return { namespace: objectNamespace(object), name: objectName(object) };
}
