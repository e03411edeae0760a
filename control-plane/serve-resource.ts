/** The verbs on one resource collection or object: get, list, watch, create, update, patch, delete. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowed, notFound } from './api-errors.js';
import { applyPatch, patchTypeOf } from './apply-patch.js';
import type { JsonValue, KubeObject } from './kube-object.js';
import { isJsonObject, objectName, objectNamespace } from './kube-object.js';
import type { ObjectStore, WriteOptions } from './object-store.js';
import type { ResourcePath } from './parse-resource-path.js';
import { renderTable } from './render-table.js';
import type { ResourceKind } from './resource-kind.js';
import { apiVersionOf } from './resource-kinds.js';
import { parseFieldSelector, parseLabelSelector } from './select-objects.js';
import { serveWatch } from './serve-watch.js';

export interface ResourceCall {
  store: ObjectStore;
  kind: ResourceKind;
  path: ResourcePath;
  query: URLSearchParams;
  request: IncomingMessage;
  response: ServerResponse;
  body: JsonValue | undefined;
  watchTimeoutMs: number;
  bookmarkIntervalMs: number;
  trackWatch: (stop: () => void, response: ServerResponse) => void;
  /** Called with the object about to be written (RBAC escalation checks); may throw. */
  beforeWrite?: (object: KubeObject) => void;
}

export interface Reply {
  code: number;
  body: JsonValue;
}

function wantsTable(request: IncomingMessage): boolean {
  return (request.headers.accept ?? '').includes('as=Table');
}

function requireObject(body: JsonValue | undefined): KubeObject {
  if (!isJsonObject(body) || !isJsonObject(body.metadata ?? {})) {
    throw badRequest('the request body must be a JSON object');
  }
  const object = body as KubeObject;
  if (!isJsonObject(object.metadata)) object.metadata = {};
  return object;
}

function listOrWatch(call: ResourceCall): Reply | undefined {
  const { store, kind, path, query } = call;
  const match = parseLabelSelector(query.get('labelSelector'));
  const fields = parseFieldSelector(query.get('fieldSelector'), kind.kind === 'Event');
  const matcher = (object: KubeObject): boolean => match(object) && fields(object);
  const table = wantsTable(call.request);
  if (query.get('watch') === 'true' || query.get('watch') === '1') {
    const timeoutSeconds = Number(query.get('timeoutSeconds') ?? 0);
    const stop = serveWatch(
      store,
      {
        kind,
        namespace: path.namespace,
        match: matcher,
        resourceVersion: query.get('resourceVersion'),
        bookmarks: query.get('allowWatchBookmarks') === 'true',
        table,
        timeoutMs: timeoutSeconds > 0 ? timeoutSeconds * 1000 : call.watchTimeoutMs,
        bookmarkIntervalMs: call.bookmarkIntervalMs,
      },
      call.response,
    );
    call.trackWatch(stop, call.response);
    return undefined;
  }
  const items = store.list(kind, { namespace: path.namespace, match: matcher });
  const resourceVersion = String(store.resourceVersion);
  if (table) {
    return {
      code: 200,
      body: renderTable(kind, { objects: items, resourceVersion, now: Date.now() }),
    };
  }
  return {
    code: 200,
    body: {
      kind: `${kind.kind}List`,
      apiVersion: apiVersionOf(kind),
      metadata: { resourceVersion },
      items,
    },
  };
}

function writeOptions(query: URLSearchParams): WriteOptions {
  return {
    dryRun: query.getAll('dryRun').includes('All'),
    strictFields: query.get('fieldValidation') === 'Strict',
  };
}

/** `deletecollection`: deletes the objects the selectors match, returns them as a list. */
function deleteCollection(call: ResourceCall, options: WriteOptions): Reply {
  const { store, kind, path, query } = call;
  const match = parseLabelSelector(query.get('labelSelector'));
  const fields = parseFieldSelector(query.get('fieldSelector'), kind.kind === 'Event');
  const items: KubeObject[] = [];
  const matched = store.list(kind, {
    namespace: path.namespace,
    match: (object) => match(object) && fields(object),
  });
  for (const object of matched) {
    // An earlier deletion may have removed this one already (owner references).
    if (store.exists(kind, refOf(object))) {
      items.push(store.delete(kind, { ref: refOf(object), options }));
    }
  }
  return {
    code: 200,
    body: {
      kind: `${kind.kind}List`,
      apiVersion: apiVersionOf(kind),
      metadata: { resourceVersion: String(store.resourceVersion) },
      items,
    },
  };
}

function refOf(object: KubeObject): { namespace: string | undefined; name: string } {
  return { namespace: objectNamespace(object), name: objectName(object) };
}

/** Returns the reply, or undefined when the response is a watch stream already being written. */
export function serveResource(call: ResourceCall): Reply | undefined {
  const { store, kind, path, query } = call;
  const method = call.request.method ?? 'GET';
  const status = path.subresource === 'status';
  if (path.subresource !== undefined && !(status && kind.hasStatus)) {
    throw notFound({ group: kind.group, kind: kind.kind, name: path.name ?? '' }, kind.plural);
  }
  if (!kind.namespaced && path.namespace !== undefined) {
    throw notFound({ group: kind.group, kind: kind.kind, name: path.name ?? '' }, kind.plural);
  }
  const options = writeOptions(query);
  if (path.name === undefined) {
    if (method === 'GET') return listOrWatch(call);
    if (method === 'POST') {
      const body = requireObject(call.body);
      call.beforeWrite?.(body);
      const created = store.create(kind, { namespace: path.namespace, body, options });
      return { code: 201, body: created };
    }
    if (method === 'DELETE') return deleteCollection(call, options);
    throw methodNotAllowed(`${method} is not supported on a collection here`);
  }
  const ref = { namespace: path.namespace, name: path.name };
  switch (method) {
    case 'GET': {
      const object = store.get(kind, ref);
      if (wantsTable(call.request)) {
        const resourceVersion = String(store.resourceVersion);
        return {
          code: 200,
          body: renderTable(kind, { objects: [object], resourceVersion, now: Date.now() }),
        };
      }
      return { code: 200, body: object };
    }
    case 'PUT': {
      const body = requireObject(call.body);
      call.beforeWrite?.(body);
      return { code: 200, body: store.update(kind, { ref, body, status, options }) };
    }
    case 'PATCH': {
      // Strategic merge patches are for built-in kinds (kubectl sends them for core and RBAC kinds);
      // custom resources (the kinds that track generations here) refuse them, as in a cluster.
      const type = patchTypeOf(call.request.headers['content-type'] ?? '', !kind.tracksGeneration);
      if (type === 'apply' && !store.exists(kind, ref)) {
        const body = requireObject(call.body);
        call.beforeWrite?.(body);
        const created = store.create(kind, { namespace: path.namespace, body, options });
        return { code: 201, body: created };
      }
      const current = store.get(kind, ref);
      const patched = requireObject(applyPatch(current, { type, body: call.body ?? null }));
      // A patch is unconditional unless it names a resourceVersion itself.
      if (
        typeof patched.metadata.resourceVersion !== 'string' ||
        patched.metadata.resourceVersion === ''
      ) {
        patched.metadata.resourceVersion = current.metadata.resourceVersion ?? '';
      }
      call.beforeWrite?.(patched);
      return { code: 200, body: store.update(kind, { ref, body: patched, status, options }) };
    }
    case 'DELETE':
      return { code: 200, body: store.delete(kind, { ref, options }) };
    default:
      throw methodNotAllowed(`${method} is not supported`);
  }
}
