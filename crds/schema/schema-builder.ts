/**
 * One description of each field yields both a zod schema (for the code) and a structural OpenAPI v3
 * schema (for the CRD YAML), so the two can never drift apart.
 */
import { z } from 'zod';

export interface CelRule {
  rule: string;
  message: string;
  fieldPath?: string;
  reason?:
    'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

/** The subset of OpenAPI v3 that structural CRD schemas use. */
export interface OpenApiSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean' | 'number';
  description?: string;
  format?: string;
  enum?: readonly string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  maxProperties?: number;
  default?: unknown;
  properties?: Record<string, OpenApiSchema>;
  required?: readonly string[];
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema;
  anyOf?: readonly OpenApiSchema[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: readonly string[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-validations'?: readonly CelRule[];
}

export interface Field<Z extends z.ZodType = z.ZodType> {
  readonly zod: Z;
  readonly openapi: OpenApiSchema;
  /** Present when the API server fills the field in; the zod schema applies the same default. */
  readonly hasDefault: boolean;
}

interface Common {
  description?: string;
  rules?: readonly CelRule[];
}

function describe(schema: OpenApiSchema, options: Common): OpenApiSchema {
  const out: OpenApiSchema = { ...schema };
  if (options.description !== undefined) out.description = options.description;
  if (options.rules !== undefined && options.rules.length > 0) {
    out['x-kubernetes-validations'] = options.rules;
  }
  return out;
}

export interface StringOptions extends Common {
  maxLength: number;
  minLength?: number;
  pattern?: string;
  format?: 'date-time';
}

export function string(options: StringOptions): Field<z.ZodString> {
  let zod = z.string().max(options.maxLength);
  if (options.minLength !== undefined) zod = zod.min(options.minLength);
  if (options.pattern !== undefined) zod = zod.regex(new RegExp(options.pattern));
  if (options.format === 'date-time')
    zod = zod.refine((v) => !Number.isNaN(Date.parse(v)), 'must be an RFC 3339 date-time');
  const openapi: OpenApiSchema = { type: 'string', maxLength: options.maxLength };
  if (options.minLength !== undefined) openapi.minLength = options.minLength;
  if (options.pattern !== undefined) openapi.pattern = options.pattern;
  if (options.format !== undefined) openapi.format = options.format;
  return { zod, openapi: describe(openapi, options), hasDefault: false };
}

export function enumOf<const V extends readonly [string, ...string[]]>(
  values: V,
  options: Common = {},
): Field<z.ZodEnum<{ [K in V[number]]: K }>> {
  return {
    zod: z.enum(values),
    openapi: describe({ type: 'string', enum: values }, options),
    hasDefault: false,
  };
}

export interface IntegerOptions extends Common {
  minimum: number;
  maximum: number;
}

export function integer(options: IntegerOptions): Field<z.ZodNumber> {
  return {
    zod: z.number().int().min(options.minimum).max(options.maximum),
    openapi: describe(
      { type: 'integer', minimum: options.minimum, maximum: options.maximum },
      options,
    ),
    hasDefault: false,
  };
}

export function boolean(options: Common = {}): Field<z.ZodBoolean> {
  return { zod: z.boolean(), openapi: describe({ type: 'boolean' }, options), hasDefault: false };
}

export interface DecimalOptions extends Common {
  /** String form; integers in the YAML are matched by `maxInteger`. */
  pattern: string;
  maxLength: number;
  minInteger: number;
  maxInteger: number;
}

/** A decimal written as an integer or a quoted string (`x-kubernetes-int-or-string`). */
export function decimal(
  options: DecimalOptions,
): Field<z.ZodUnion<readonly [z.ZodNumber, z.ZodString]>> {
  const zod = z.union([
    z.number().int().min(options.minInteger).max(options.maxInteger),
    z.string().max(options.maxLength).regex(new RegExp(options.pattern)),
  ]);
  const openapi: OpenApiSchema = {
    'x-kubernetes-int-or-string': true,
    anyOf: [
      { type: 'integer', minimum: options.minInteger, maximum: options.maxInteger },
      { type: 'string', pattern: options.pattern, maxLength: options.maxLength },
    ],
  };
  return { zod, openapi: describe(openapi, options), hasDefault: false };
}

export interface ListOptions extends Common {
  maxItems: number;
  listType?: 'atomic' | 'set' | 'map';
  mapKeys?: readonly string[];
}

export function list<Z extends z.ZodType>(
  item: Field<Z>,
  options: ListOptions,
): Field<z.ZodArray<Z>> {
  const openapi: OpenApiSchema = { type: 'array', maxItems: options.maxItems, items: item.openapi };
  if (options.listType !== undefined) openapi['x-kubernetes-list-type'] = options.listType;
  if (options.mapKeys !== undefined) openapi['x-kubernetes-list-map-keys'] = options.mapKeys;
  return {
    zod: z.array(item.zod).max(options.maxItems),
    openapi: describe(openapi, options),
    hasDefault: false,
  };
}

export interface MapOptions extends Common {
  maxProperties: number;
}

export function stringMap(
  value: Field<z.ZodString>,
  options: MapOptions,
): Field<z.ZodRecord<z.ZodString, z.ZodString>> {
  return {
    zod: z.record(z.string(), value.zod),
    openapi: describe(
      { type: 'object', maxProperties: options.maxProperties, additionalProperties: value.openapi },
      options,
    ),
    hasDefault: false,
  };
}

type Shape = Record<string, Field>;

type ObjectZod<S extends Shape, R extends keyof S> = z.ZodObject<{
  [K in keyof S]: K extends R
    ? S[K]['zod']
    : S[K]['hasDefault'] extends true
      ? S[K]['zod']
      : z.ZodOptional<S[K]['zod']>;
}>;

export interface ObjectOptions<R> extends Common {
  required?: readonly R[];
}

export function object<S extends Shape, R extends keyof S & string = never>(
  shape: S,
  options: ObjectOptions<R> = {},
): Field<ObjectZod<S, R>> {
  const required = new Set<string>(options.required ?? []);
  const zodShape: Record<string, z.ZodType> = {};
  const properties: Record<string, OpenApiSchema> = {};
  for (const [name, field] of Object.entries(shape)) {
    zodShape[name] = required.has(name) || field.hasDefault ? field.zod : field.zod.optional();
    properties[name] = field.openapi;
  }
  const openapi: OpenApiSchema = { type: 'object', properties };
  if (required.size > 0) openapi.required = [...required];
  return {
    zod: z.object(zodShape) as unknown as ObjectZod<S, R>,
    openapi: describe(openapi, options),
    hasDefault: false,
  };
}

/** The API server fills the value in when it is absent; the zod schema does the same. */
export function withDefault<Z extends z.ZodType>(
  field: Field<Z>,
  value: z.input<Z> & z.output<Z>,
): Field<z.ZodDefault<Z>> {
  return {
    zod: field.zod.default(value as never),
    openapi: { ...field.openapi, default: value },
    hasDefault: true,
  };
}

/**
 * A default the code applies when it reads the object, not the API server. For fields inside list
 * items: lists are replaced whole by merge patches, so a server-side default there makes every
 * client-side `kubectl apply` of an unchanged manifest report `configured`.
 */
export function withCodeDefault<Z extends z.ZodType>(
  field: Field<Z>,
  value: z.input<Z> & z.output<Z>,
): Field<z.ZodDefault<Z>> {
  return { zod: field.zod.default(value as never), openapi: field.openapi, hasDefault: true };
}
