/**
 * Pure: OpenAPI v3 documents per group-version. kubectl reads them to choose a patch type and to
 * learn that the server validates fields itself (the `fieldValidation` query parameter on PATCH).
 */
import type { JsonObject, JsonValue } from './kube-object.js';
import type { ResourceKind } from './resource-kind.js';

export function groupVersionPath(kind: { group: string; version: string }): string {
  return kind.group === '' ? `api/${kind.version}` : `apis/${kind.group}/${kind.version}`;
}

export function schemaName(kind: ResourceKind): string {
  const group = kind.group === '' ? 'io.k8s.api.core' : kind.group.split('.').reverse().join('.');
  return `${group}.${kind.version}.${kind.kind}`;
}

function operation(kind: ResourceKind, verb: string): JsonObject {
  const reference = { $ref: `#/components/schemas/${schemaName(kind)}` };
  const op: JsonObject = {
    operationId: `${verb}${kind.kind}`,
    'x-kubernetes-action': verb,
    'x-kubernetes-group-version-kind': {
      group: kind.group,
      version: kind.version,
      kind: kind.kind,
    },
    parameters: [
      { name: 'dryRun', in: 'query', schema: { type: 'string' } },
      { name: 'fieldManager', in: 'query', schema: { type: 'string' } },
      { name: 'fieldValidation', in: 'query', schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: 'OK', content: { 'application/json': { schema: reference } } },
    },
  };
  if (verb === 'patch') {
    op.requestBody = {
      content: {
        'application/json-patch+json': { schema: { type: 'object' } },
        'application/merge-patch+json': { schema: { type: 'object' } },
        'application/apply-patch+yaml': { schema: { type: 'object' } },
      },
    };
  }
  return op;
}

function schemaOf(kind: ResourceKind): JsonValue {
  const base = (kind.schema ?? {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  }) as unknown as JsonObject;
  return {
    ...structuredClone(base),
    'x-kubernetes-group-version-kind': [
      { group: kind.group, version: kind.version, kind: kind.kind },
    ],
  };
}

export function openApiIndex(kinds: readonly ResourceKind[]): JsonObject {
  const paths: JsonObject = {};
  for (const kind of kinds) {
    const path = groupVersionPath(kind);
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=tollgate-${kind.version}` };
  }
  return { paths };
}

export function openApiDocument(
  kinds: readonly ResourceKind[],
  path: string,
): JsonObject | undefined {
  const selected = kinds.filter((kind) => groupVersionPath(kind) === path);
  if (selected.length === 0) return undefined;
  const paths: JsonObject = {};
  const schemas: JsonObject = {};
  for (const kind of selected) {
    const scope = kind.namespaced ? '/namespaces/{namespace}' : '';
    if (kind.review === true) {
      paths[`/${path}${scope}/${kind.plural}`] = { post: operation(kind, 'post') };
      schemas[schemaName(kind)] = schemaOf(kind);
      continue;
    }
    paths[`/${path}${scope}/${kind.plural}/{name}`] = {
      get: operation(kind, 'get'),
      put: operation(kind, 'put'),
      patch: operation(kind, 'patch'),
      delete: operation(kind, 'delete'),
    };
    schemas[schemaName(kind)] = schemaOf(kind);
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Tollgate local control plane', version: 'v1.32.0' },
    paths,
    components: { schemas },
  };
}
