/**
 * The router: authentication, impersonation, authorization (RBAC), discovery, OpenAPI, then the
 * resource verbs and access reviews. Errors become `Status`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest, methodNotAllowed } from './api-errors.js';
import type { Authenticator } from './authenticate-request.js';
import { requireAllowed } from './authorize-request.js';
import { checkRbacEscalation } from './check-rbac-escalation.js';
import type { RbacObjects } from './evaluate-rbac.js';
import { impersonateUser } from './impersonate-user.js';
import { RBAC_GROUP } from './rbac-kinds.js';
import type { UserInfo } from './request-attributes.js';
import { requestAttributes } from './request-attributes.js';
import { serveAccessReview } from './serve-access-review.js';
import {
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
  versionInfo,
} from './build-discovery.js';
import { openApiDocument, openApiIndex } from './build-openapi.js';
import { openApiV2Document, openApiV2Json } from './build-openapi-v2.js';
import {
  encodeOpenApiV2,
  OPENAPI_V2_PROTOBUF,
  OPENAPI_V2_PROTOBUF_REPLY,
} from './encode-openapi-v2.js';
import { parse as parseYaml } from 'yaml';
import { decodeKubernetesProtobuf } from './decode-protobuf.js';
import type { JsonValue, KubeObject } from './kube-object.js';
import type { ObjectStore } from './object-store.js';
import type { ResourcePath } from './parse-resource-path.js';
import { parseResourcePath } from './parse-resource-path.js';
import type { ResourceKind } from './resource-kind.js';
import { findKind } from './resource-kinds.js';
import { serveResource } from './serve-resource.js';

const maxBodyBytes = 3 * 1024 * 1024;

export interface ApiContext {
  kinds: readonly ResourceKind[];
  store: ObjectStore;
  authenticator: Authenticator;
  rbac: RbacObjects;
  serverAddress: string;
  watchTimeoutMs: number;
  bookmarkIntervalMs: number;
  trackWatch: (stop: () => void, response: ServerResponse) => void;
}

async function readBody(request: IncomingMessage): Promise<JsonValue | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBodyBytes) throw badRequest('request body too large');
    chunks.push(buffer);
  }
  if (size === 0) return undefined;
  const contentType = request.headers['content-type'] ?? 'application/json';
  if (contentType.startsWith('application/vnd.kubernetes.protobuf')) {
    try {
      return decodeKubernetesProtobuf(Buffer.concat(chunks));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw badRequest(`the protobuf body could not be decoded: ${String(error)}`);
    }
  }
  if (contentType.startsWith('application/apply-patch+yaml')) {
    const text = Buffer.concat(chunks).toString('utf8');
    // kubectl sends its apply patches as JSON (which is YAML): JSON.parse is many times cheaper.
    if (text.trimStart().startsWith('{')) {
      try {
        return JSON.parse(text) as JsonValue;
      } catch {
        // Not JSON after all (YAML flow style): the YAML parser decides.
      }
    }
    try {
      return parseYaml(text) as JsonValue;
    } catch {
      throw badRequest('the apply patch is not valid YAML');
    }
  }
  if (contentType.includes('yaml') || contentType.includes('protobuf')) {
    throw new ApiError({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: `the local control plane accepts JSON bodies only (got ${contentType})`,
    });
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonValue;
  } catch {
    throw badRequest('the request body is not valid JSON');
  }
}

function send(response: ServerResponse, reply: { code: number; body: JsonValue }): void {
  const text = JSON.stringify(reply.body);
  response.writeHead(reply.code, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Protobuf for client-go (kubectl), JSON for anything else. */
function sendOpenApiV2(context: ApiContext, request: IncomingMessage, response: ServerResponse) {
  const document = openApiV2Document(context.kinds);
  if ((request.headers.accept ?? '').includes(OPENAPI_V2_PROTOBUF)) {
    const bytes = encodeOpenApiV2(document);
    response.writeHead(200, {
      'content-type': OPENAPI_V2_PROTOBUF_REPLY,
      'content-length': bytes.length,
    });
    response.end(bytes);
    return;
  }
  send(response, { code: 200, body: openApiV2Json(document) as JsonValue });
}

function discovery(context: ApiContext, pathname: string): JsonValue | undefined {
  const parts = pathname.split('/').filter((part) => part !== '');
  if (pathname === '/version') return versionInfo();
  if (pathname === '/api') return apiVersions(context.serverAddress);
  if (pathname === '/apis') return apiGroupList(context.kinds);
  if (pathname === '/openapi/v3') return openApiIndex(context.kinds);
  if (parts[0] === 'openapi' && parts[1] === 'v3') {
    return openApiDocument(context.kinds, parts.slice(2).join('/'));
  }
  if (parts[0] === 'api' && parts.length === 2) {
    return apiResourceList(context.kinds, { group: '', version: parts[1] ?? '' });
  }
  if (parts[0] === 'apis' && parts.length === 2)
    return apiGroupDocument(context.kinds, parts[1] ?? '');
  if (parts[0] === 'apis' && parts.length === 3) {
    return apiResourceList(context.kinds, { group: parts[1] ?? '', version: parts[2] ?? '' });
  }
  return undefined;
}

const notFoundBody = new ApiError({
  code: 404,
  reason: 'NotFound',
  message: 'the server could not find the requested resource',
});

function serveReview(
  context: ApiContext,
  call: {
    kind: ResourceKind;
    path: ResourcePath;
    body: JsonValue | undefined;
    user: UserInfo;
    method: string | undefined;
  },
): { code: number; body: JsonValue } {
  const { kind, path } = call;
  if (call.method !== 'POST' || path.name !== undefined || path.subresource !== undefined) {
    throw methodNotAllowed(`${call.method ?? ''} is not supported on ${kind.plural}`);
  }
  if (kind.namespaced !== (path.namespace !== undefined)) throw notFoundBody;
  const review = serveAccessReview({
    objects: context.rbac,
    kind,
    namespace: path.namespace,
    body: call.body,
    user: call.user,
  });
  return { code: 201, body: review };
}

async function route(context: ApiContext, request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://local');
  if (['/healthz', '/livez', '/readyz'].includes(url.pathname)) {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok');
    return;
  }
  const requester = context.authenticator.authenticate(request);
  const user = impersonateUser(context.rbac, { http: request, requester });
  const attributes = requestAttributes({
    method: request.method ?? 'GET',
    pathname: url.pathname,
    query: url.searchParams,
  });
  requireAllowed(context.rbac, { user, attributes });
  const body = await readBody(request);
  if (request.method === 'GET' && url.pathname === '/openapi/v2') {
    sendOpenApiV2(context, request, response);
    return;
  }
  const document = request.method === 'GET' ? discovery(context, url.pathname) : undefined;
  if (document !== undefined) {
    send(response, { code: 200, body: document });
    return;
  }
  const path = parseResourcePath(url.pathname);
  const kind = path === undefined ? undefined : findKind(context.kinds, path);
  if (path === undefined || kind === undefined) throw notFoundBody;
  if (kind.review === true) {
    send(response, serveReview(context, { kind, path, body, user, method: request.method }));
    return;
  }
  const reply = serveResource({
    store: context.store,
    kind,
    path,
    query: url.searchParams,
    request,
    response,
    body,
    watchTimeoutMs: context.watchTimeoutMs,
    bookmarkIntervalMs: context.bookmarkIntervalMs,
    trackWatch: context.trackWatch,
    ...(kind.group === RBAC_GROUP
      ? {
          beforeWrite: (object: KubeObject) => {
            checkRbacEscalation(context.rbac, { user, namespace: path.namespace ?? '', object });
          },
        }
      : {}),
  });
  if (reply === undefined) return;
  // A write is acknowledged only once synced, so what a writer is told survives a crash. Reads
  // answer from memory at once: they may show a change whose sync is still under way (a few ms).
  if (request.method !== 'GET') await context.store.durable();
  send(response, reply);
}

export async function handleApiRequest(
  context: ApiContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    await route(context, request, response);
  } catch (error) {
    const apiError =
      error instanceof ApiError
        ? error
        : new ApiError({
            code: 500,
            reason: 'InternalError',
            message: error instanceof Error ? error.message : String(error),
          });
    if (response.headersSent) {
      response.end();
      return;
    }
    send(response, { code: apiError.code, body: apiError.toStatus() });
  }
}
