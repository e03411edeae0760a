/**
 * `?watch=true`: streams JSON lines `{type, object}`. Starts from `resourceVersion` (410 Gone as an
 * ERROR event when that version left the retained window), or from the current state when absent or
 * "0". Sends BOOKMARK events when asked, and ends after `timeoutSeconds` or the server's limit.
 */
import type { ServerResponse } from 'node:http';
import { gone } from './api-errors.js';
import type { JsonObject, KubeObject } from './kube-object.js';
import { objectNamespace, textOf } from './kube-object.js';
import { collectionOf } from './object-store.js';
import type { ObjectStore } from './object-store.js';
import { renderTable } from './render-table.js';
import type { ResourceKind } from './resource-kind.js';
import { apiVersionOf } from './resource-kinds.js';
import type { Matcher } from './select-objects.js';
import type { ChangeEvent } from './watch-hub.js';

export interface WatchRequest {
  kind: ResourceKind;
  namespace: string | undefined;
  match: Matcher;
  resourceVersion: string | null;
  bookmarks: boolean;
  table: boolean;
  timeoutMs: number;
  bookmarkIntervalMs: number;
}

export function serveWatch(
  store: ObjectStore,
  watch: WatchRequest,
  response: ServerResponse,
): () => void {
  const { kind } = watch;
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  // Clients wait for the headers before they treat the watch as open, even with no event yet.
  response.flushHeaders();
  // The events of one tick (a synced batch) leave in one write instead of one each.
  const cork = (): void => {
    if (response.writableCorked === 0) {
      response.cork();
      process.nextTick(() => {
        response.uncork();
      });
    }
  };
  let tableHeaderSent = false;
  const send = (type: string, object: KubeObject | JsonObject): void => {
    let payload: JsonObject = object;
    if (watch.table && type !== 'ERROR' && type !== 'BOOKMARK') {
      payload = renderTable(kind, {
        objects: [object as KubeObject],
        resourceVersion: textOf((object as KubeObject).metadata.resourceVersion),
        now: Date.now(),
      });
      if (tableHeaderSent) payload.columnDefinitions = [];
      tableHeaderSent = true;
    }
    cork();
    response.write(`${JSON.stringify({ type, object: payload })}\n`);
  };
  const relevant = (event: ChangeEvent): boolean =>
    event.collection === collectionOf(kind) &&
    (watch.namespace === undefined || objectNamespace(event.object) === watch.namespace) &&
    watch.match(event.object);

  /** Without a table, an event's line is encoded once for every watch that sends it. */
  const sendEvent = (event: ChangeEvent): void => {
    if (watch.table) {
      send(event.type, event.object);
      return;
    }
    cork();
    event.line ??= `{"type":"${event.type}","object":${event.json ?? JSON.stringify(event.object)}}\n`;
    response.write(event.line);
  };

  let backlog: ChangeEvent[] | undefined;
  const requested = watch.resourceVersion;
  // Changes are published once synced: events up to the starting version (those in the backlog, or
  // in the list below while their sync is under way) must not be sent twice.
  let startVersion = store.resourceVersion;
  if (requested !== null && requested !== '' && requested !== '0') {
    backlog = store.hub.since(Number(requested));
    startVersion = Math.max(Number(requested), ...(backlog ?? []).map((e) => e.resourceVersion));
    if (backlog === undefined || Number.isNaN(Number(requested))) {
      send(
        'ERROR',
        gone(`too old resource version: ${requested} (${store.resourceVersion})`).toStatus(),
      );
      response.end();
      return () => undefined;
    }
  } else {
    backlog = store
      .list(kind, { namespace: watch.namespace, match: watch.match })
      .map((object) => ({
        type: 'ADDED',
        collection: collectionOf(kind),
        object,
        resourceVersion: Number(object.metadata.resourceVersion),
      }));
  }
  for (const event of backlog) if (relevant(event)) sendEvent(event);
  const unsubscribe = store.hub.subscribe((event) => {
    if (event.resourceVersion > startVersion && relevant(event)) sendEvent(event);
  });
  const bookmark = setInterval(() => {
    if (!watch.bookmarks) return;
    send('BOOKMARK', {
      kind: kind.kind,
      apiVersion: apiVersionOf(kind),
      metadata: { resourceVersion: String(store.resourceVersion) },
    });
  }, watch.bookmarkIntervalMs);
  const finish = (): void => {
    clearInterval(bookmark);
    clearTimeout(timer);
    unsubscribe();
    if (!response.writableEnded) response.end();
  };
  const timer = setTimeout(finish, watch.timeoutMs);
  response.on('close', finish);
  return finish;
}
