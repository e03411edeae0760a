/**
 * Pure: structural OpenAPI validation the way the API server does it for CRDs: defaulting, pruning of
 * unknown fields, then types, enums, patterns, bounds, required fields and list uniqueness.
 */
import type { OpenApiSchema } from '../crds/schema/schema-builder.js';
import type { StatusCause } from './api-errors.js';
import type { JsonObject, JsonValue } from './kube-object.js';
import { isJsonObject, jsonEqual } from './kube-object.js';

export interface SchemaResult {
  value: JsonValue;
  causes: StatusCause[];
  /** Paths of unknown fields that were dropped (fieldValidation=Strict refuses them). */
  pruned: string[];
}

interface Walk {
  causes: StatusCause[];
  pruned: string[];
}

function quote(value: JsonValue): string {
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
}

function typeName(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function fits(schemaType: string, value: JsonValue): boolean {
  const actual = typeName(value);
  if (schemaType === 'number') return actual === 'number' || actual === 'integer';
  return actual === schemaType;
}

function invalidValue(walk: Walk, field: string, detail: { value: JsonValue; text: string }): void {
  walk.causes.push({
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${quote(detail.value)}: ${detail.text}`,
    field,
  });
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function checkString(walk: Walk, schema: OpenApiSchema, where: { value: string; path: string }) {
  const { value, path } = where;
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    walk.causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${quote(value)}: supported values: ${schema.enum.map((v) => `"${v}"`).join(', ')}`,
      field: path,
    });
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    walk.causes.push({
      reason: 'FieldValueTooLong',
      message: `Too long: may not be more than ${schema.maxLength} bytes`,
      field: path,
    });
  }
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    invalidValue(walk, path, {
      value,
      text: `${path} in body should be at least ${schema.minLength} chars long`,
    });
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    invalidValue(walk, path, { value, text: `${path} in body should match '${schema.pattern}'` });
  }
  if (schema.format === 'date-time' && !isDateTime(value)) {
    invalidValue(walk, path, {
      value,
      text: `${path} in body must be of type date-time: "${value}"`,
    });
  }
}

function isDateTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value)
    ? !Number.isNaN(Date.parse(value))
    : false;
}

function checkNumber(walk: Walk, schema: OpenApiSchema, where: { value: number; path: string }) {
  const { value, path } = where;
  if (schema.minimum !== undefined && value < schema.minimum) {
    invalidValue(walk, path, {
      value,
      text: `${path} in body should be greater than or equal to ${schema.minimum}`,
    });
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    invalidValue(walk, path, {
      value,
      text: `${path} in body should be less than or equal to ${schema.maximum}`,
    });
  }
}

function listKey(item: JsonValue, keys: readonly string[]): string {
  return JSON.stringify(keys.map((key) => (isJsonObject(item) ? (item[key] ?? null) : null)));
}

function checkList(walk: Walk, schema: OpenApiSchema, where: { value: JsonValue[]; path: string }) {
  const { value, path } = where;
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    walk.causes.push({
      reason: 'FieldValueTooMany',
      message: `Too many: ${value.length}: must have at most ${schema.maxItems} items`,
      field: path,
    });
  }
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') {
    value.forEach((item, index) => {
      if (value.findIndex((other) => jsonEqual(other, item)) < index) {
        walk.causes.push({
          reason: 'FieldValueDuplicate',
          message: `Duplicate value: ${quote(item)}`,
          field: `${path}[${index}]`,
        });
      }
    });
  }
  if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const seen = new Set<string>();
    value.forEach((item, index) => {
      const key = listKey(item, keys);
      if (seen.has(key)) {
        const shown = isJsonObject(item)
          ? Object.fromEntries(keys.map((k) => [k, item[k] ?? null]))
          : item;
        walk.causes.push({
          reason: 'FieldValueDuplicate',
          message: `Duplicate value: ${JSON.stringify(shown)}`,
          field: `${path}[${index}]`,
        });
      }
      seen.add(key);
    });
  }
}

function walkObject(walk: Walk, schema: OpenApiSchema, where: { value: JsonObject; path: string }) {
  const { value, path } = where;
  const out: JsonObject = {};
  const properties = schema.properties;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = properties?.[key] ?? schema.additionalProperties;
    if (childSchema === undefined) {
      if (preserve || (properties === undefined && schema.additionalProperties === undefined)) {
        out[key] = child;
      } else {
        walk.pruned.push(join(path, key));
      }
      continue;
    }
    out[key] = walkValue(walk, childSchema, { value: child, path: join(path, key) });
  }
  for (const [key, childSchema] of Object.entries(properties ?? {})) {
    if (out[key] === undefined && childSchema.default !== undefined) {
      const defaulted = structuredClone(childSchema.default) as JsonValue;
      out[key] = walkValue(walk, childSchema, { value: defaulted, path: join(path, key) });
    }
  }
  for (const key of schema.required ?? []) {
    if (out[key] === undefined) {
      walk.causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value',
        field: join(path, key),
      });
    }
  }
  if (schema.maxProperties !== undefined && Object.keys(out).length > schema.maxProperties) {
    walk.causes.push({
      reason: 'FieldValueTooMany',
      message: `Too many: ${Object.keys(out).length}: must have at most ${schema.maxProperties} items`,
      field: path,
    });
  }
  return out;
}

function branchFor(schema: OpenApiSchema, value: JsonValue): OpenApiSchema | undefined {
  return schema.anyOf?.find((branch) => branch.type !== undefined && fits(branch.type, value));
}

function walkValue(
  walk: Walk,
  schema: OpenApiSchema,
  where: { value: JsonValue; path: string },
): JsonValue {
  const { value, path } = where;
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (typeName(value) !== 'integer' && typeof value !== 'string') {
      invalidValue(walk, path, {
        value,
        text: `${path} in body must be of type integer-or-string: "${typeName(value)}"`,
      });
      return value;
    }
    const branch = branchFor(schema, value);
    return branch === undefined ? value : walkValue(walk, branch, where);
  }
  if (schema.type !== undefined && !fits(schema.type, value)) {
    invalidValue(walk, path, {
      value,
      text: `${path} in body must be of type ${schema.type}: "${typeName(value)}"`,
    });
    return value;
  }
  if (typeof value === 'string') checkString(walk, schema, { value, path });
  if (typeof value === 'number') checkNumber(walk, schema, { value, path });
  if (Array.isArray(value)) {
    const items = schema.items;
    const out: JsonValue[] =
      items === undefined
        ? value
        : value.map((item, index) =>
            walkValue(walk, items, { value: item, path: `${path}[${index}]` }),
          );
    checkList(walk, schema, { value: out, path });
    return out;
  }
  if (isJsonObject(value)) return walkObject(walk, schema, { value, path });
  return value;
}

/**
 * A CRD schema may restrict `metadata.name` and `metadata.generateName` only; the rest of metadata
 * belongs to the API server and is neither validated nor pruned here.
 */
function checkMetadata(walk: Walk, schema: OpenApiSchema | undefined, metadata: JsonValue): void {
  if (schema?.properties === undefined || !isJsonObject(metadata)) return;
  for (const key of ['name', 'generateName']) {
    const fieldSchema = schema.properties[key];
    const value = metadata[key];
    if (fieldSchema !== undefined && value !== undefined) {
      walkValue(walk, fieldSchema, { value, path: `metadata.${key}` });
    }
  }
}

/** Validates `value` (a whole object) against the root schema; metadata is left to the caller. */
export function validateSchema(schema: OpenApiSchema, value: JsonObject): SchemaResult {
  const walk: Walk = { causes: [], pruned: [] };
  const { metadata, ...rest } = value;
  const properties = { ...schema.properties };
  delete properties.metadata;
  const walked = walkValue(walk, { ...schema, properties }, { value: rest, path: '' });
  if (metadata === undefined || !isJsonObject(walked)) {
    return { value: walked, causes: walk.causes, pruned: walk.pruned };
  }
  checkMetadata(walk, schema.properties?.metadata, metadata);
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const kept = key === 'metadata' ? metadata : walked[key];
    if (kept !== undefined) out[key] = kept;
  }
  for (const [key, child] of Object.entries(walked)) out[key] ??= child;
  return { value: out, causes: walk.causes, pruned: walk.pruned };
}
