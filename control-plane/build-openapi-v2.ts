/**
 * Pure: the OpenAPI v2 (Swagger) document. kubectl validates the items of a `v1 List` on the client
 * against `/openapi/v2` (what `kubectl get -o yaml` writes for more than one object), so applying
 * such a file needs it. The CRD schemas are converted the way the API server publishes them in v2:
 * value validations (patterns, enums, bounds, formats) and defaults are dropped, int-or-string
 * fields lose their type, metadata is an open object, and each kind carries
 * `x-kubernetes-group-version-kind`. Core kinds have
 * no definition, so kubectl skips their client-side check and the server validates them.
 */
import type { OpenApiSchema } from '../crds/schema/schema-builder.js';
import { schemaName } from './build-openapi.js';
import type { ResourceKind } from './resource-kind.js';

export interface SwaggerSchema {
  type?: string;
  description?: string;
  required?: string[];
  properties?: [string, SwaggerSchema][];
  items?: SwaggerSchema;
  additionalProperties?: SwaggerSchema;
  /** Vendor extensions, each value as the YAML text the protobuf form carries. */
  extensions?: [string, unknown][];
}

export interface SwaggerDocument {
  swagger: string;
  info: { title: string; version: string };
  definitions: [string, SwaggerSchema][];
}

export function toSwaggerSchema(schema: OpenApiSchema): SwaggerSchema {
  const out: SwaggerSchema = {};
  if (schema.description !== undefined) out.description = schema.description;
  if (schema['x-kubernetes-int-or-string'] === true) return out;
  if (schema.type !== undefined) out.type = schema.type;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return out;
  if (schema.properties !== undefined) {
    out.properties = Object.entries(schema.properties).map(([name, child]) => [
      name,
      toSwaggerSchema(child),
    ]);
  }
  if (schema.required !== undefined && schema.required.length > 0) {
    out.required = [...schema.required];
  }
  if (schema.items !== undefined) out.items = toSwaggerSchema(schema.items);
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = toSwaggerSchema(schema.additionalProperties);
  }
  return out;
}

export function openApiV2Document(kinds: readonly ResourceKind[]): SwaggerDocument {
  const definitions: [string, SwaggerSchema][] = [];
  for (const kind of kinds) {
    if (kind.schema === undefined) continue;
    const schema = toSwaggerSchema(kind.schema);
    // The API server publishes `$ref: ObjectMeta` here; an open object accepts the same documents.
    schema.properties = (schema.properties ?? []).map(([name, child]) =>
      name === 'metadata' ? [name, { type: 'object' }] : [name, child],
    );
    schema.extensions = [
      [
        'x-kubernetes-group-version-kind',
        [{ group: kind.group, kind: kind.kind, version: kind.version }],
      ],
    ];
    definitions.push([schemaName(kind), schema]);
  }
  return {
    swagger: '2.0',
    info: { title: 'Tollgate local control plane', version: 'v1.32.0' },
    definitions,
  };
}

function schemaJson(schema: SwaggerSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema.type !== undefined) out.type = schema.type;
  if (schema.description !== undefined) out.description = schema.description;
  if (schema.required !== undefined) out.required = schema.required;
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(
      schema.properties.map(([name, child]) => [name, schemaJson(child)]),
    );
  }
  if (schema.items !== undefined) out.items = schemaJson(schema.items);
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = schemaJson(schema.additionalProperties);
  }
  for (const [name, value] of schema.extensions ?? []) out[name] = value;
  return out;
}

/** The same document as JSON, for clients that ask for `application/json`. */
export function openApiV2Json(document: SwaggerDocument): Record<string, unknown> {
  return {
    swagger: document.swagger,
    info: document.info,
    paths: {},
    definitions: Object.fromEntries(
      document.definitions.map(([name, schema]) => [name, schemaJson(schema)]),
    ),
  };
}
