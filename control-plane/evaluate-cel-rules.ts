/**
 * The CRDs' `x-kubernetes-validations` rules, evaluated with @marcbachmann/cel-js. Transition rules
 * (those reading `oldSelf`) run only on update, when the old object has a value at the same path.
 */
import { parse } from '@marcbachmann/cel-js';
import type { CelRule, OpenApiSchema } from '../crds/schema/schema-builder.js';
import type { StatusCause } from './api-errors.js';
import type { JsonObject, JsonValue } from './kube-object.js';
import { isJsonObject } from './kube-object.js';

type Program = ReturnType<typeof parse>;
const programs = new Map<string, Program>();

function compile(rule: string): Program {
  let program = programs.get(rule);
  if (program === undefined) {
    program = parse(rule);
    programs.set(rule, program);
  }
  return program;
}

interface Visit {
  schema: OpenApiSchema;
  value: JsonValue;
  old: JsonValue | undefined;
  path: string;
}

function typeLabel(value: JsonValue): string {
  if (Array.isArray(value)) return 'array';
  if (isJsonObject(value)) return 'object';
  return typeof value;
}

function fieldOf(path: string, rule: CelRule): string {
  if (rule.fieldPath === undefined) return path;
  const relative = rule.fieldPath.replace(/^\./, '');
  return path === '' ? relative : `${path}.${relative}`;
}

function runRules(visit: Visit, causes: StatusCause[]): void {
  for (const rule of visit.schema['x-kubernetes-validations'] ?? []) {
    const transition = /\boldSelf\b/.test(rule.rule);
    if (transition && visit.old === undefined) continue;
    let passed: unknown;
    try {
      passed = compile(rule.rule)({ self: visit.value, oldSelf: visit.old ?? null });
    } catch (error) {
      passed = error instanceof Error ? error.message : String(error);
    }
    if (passed === true) continue;
    const message = typeof passed === 'string' ? `${rule.message} (${passed})` : rule.message;
    causes.push({
      reason: rule.reason ?? 'FieldValueInvalid',
      message: `Invalid value: "${typeLabel(visit.value)}": ${message}`,
      field: fieldOf(visit.path, rule),
    });
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function visitNode(visit: Visit, causes: StatusCause[]): void {
  runRules(visit, causes);
  const { schema, value, old, path } = visit;
  if (isJsonObject(value)) {
    const oldObject = isJsonObject(old) ? old : undefined;
    for (const [key, child] of Object.entries(value)) {
      const childSchema = schema.properties?.[key] ?? schema.additionalProperties;
      if (childSchema === undefined || key === 'metadata') continue;
      visitNode(
        { schema: childSchema, value: child, old: oldObject?.[key], path: join(path, key) },
        causes,
      );
    }
  } else if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    value.forEach((item, index) => {
      visitNode({ schema: items, value: item, old: undefined, path: `${path}[${index}]` }, causes);
    });
  }
}

/** Root rules see `self.metadata` with only name and generateName, as in the API server. */
export function evaluateCelRules(
  schema: OpenApiSchema,
  objects: { value: JsonObject; old: JsonObject | undefined },
): StatusCause[] {
  const causes: StatusCause[] = [];
  const metadata = isJsonObject(objects.value.metadata) ? objects.value.metadata : {};
  const rootMetadata: JsonObject = {};
  if (typeof metadata.name === 'string') rootMetadata.name = metadata.name;
  if (typeof metadata.generateName === 'string') rootMetadata.generateName = metadata.generateName;
  const value: JsonObject = { ...objects.value, metadata: rootMetadata };
  visitNode({ schema, value, old: objects.old, path: '' }, causes);
  return causes;
}
