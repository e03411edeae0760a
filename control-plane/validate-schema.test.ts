import { describe, expect, it } from 'vitest';
import type { OpenApiSchema } from '../crds/schema/schema-builder.js';
import { admitObject } from './admit-object.js';
import { ApiError } from './api-errors.js';
import type { KubeObject } from './kube-object.js';
import { loadResourceKinds } from './resource-kinds.js';
import { validateSchema } from './validate-schema.js';

const kinds = loadResourceKinds();
const kindOf = (name: string) => {
  const kind = kinds.find((item) => item.kind === name);
  if (kind === undefined) throw new Error(`${name} missing`);
  return kind;
};

function causesOf(run: () => unknown): { field: string; reason: string; message: string }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) {
      return (error.details?.causes ?? []) as { field: string; reason: string; message: string }[];
    }
    throw error;
  }
  return [];
}

describe('schema validation', () => {
  it('defaults, prunes and checks bounds', () => {
    const schema: OpenApiSchema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 3 },
        s: { type: 'string', default: 'x', maxLength: 2 },
        set: {
          type: 'array',
          maxItems: 2,
          items: { type: 'string' },
          'x-kubernetes-list-type': 'set',
        },
      },
      required: ['n'],
    };
    const result = validateSchema(schema, { extra: true, set: ['a', 'a', 'b'] });
    expect(result.value).toEqual({ s: 'x', set: ['a', 'a', 'b'] });
    expect(result.pruned).toEqual(['extra']);
    expect(result.causes.map((cause) => `${cause.field}: ${cause.message}`)).toEqual([
      'set: Too many: 3: must have at most 2 items',
      'set[1]: Duplicate value: "a"',
      'n: Required value',
    ]);
    expect(validateSchema(schema, { n: 4 }).causes[0]?.message).toBe(
      'Invalid value: 4: n in body should be less than or equal to 3',
    );
    expect(validateSchema(schema, { n: 'two' }).causes[0]?.message).toBe(
      'Invalid value: "two": n in body must be of type integer: "string"',
    );
  });

  it('runs CEL transition rules only on update', () => {
    const group = (platform: string): KubeObject => ({
      apiVersion: 'tollgate.dev/v1alpha1',
      kind: 'Group',
      metadata: { name: 'g' },
      spec: { platform },
    });
    const kind = kindOf('Group');
    const created = admitObject({
      kind,
      object: group('OpenAI'),
      old: undefined,
      strictFields: false,
    });
    expect(created.spec).toMatchObject({ platform: 'OpenAI', rateMultiplier: 1 });
    const causes = causesOf(() =>
      admitObject({ kind, object: group('Gemini'), old: created, strictFields: false }),
    );
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "string": platform is immutable',
        field: 'spec.platform',
      },
    ]);
  });

  it('merges Secret stringData into base64 data and refuses bad base64', () => {
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { a: 'QQ==' },
      stringData: { b: 'B' },
    };
    const admitted = admitObject({
      kind: kindOf('Secret'),
      object: secret,
      old: undefined,
      strictFields: false,
    });
    expect(admitted).toMatchObject({ data: { a: 'QQ==', b: 'Qg==' }, type: 'Opaque' });
    expect(admitted.stringData).toBeUndefined();
    const bad = { ...secret, data: { a: 'not base64!' } };
    expect(
      causesOf(() =>
        admitObject({ kind: kindOf('Secret'), object: bad, old: undefined, strictFields: false }),
      ),
    ).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: illegal base64 data',
        field: 'data[a]',
      },
    ]);
  });
});
