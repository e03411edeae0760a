/**
 * Pure: decodes the Kubernetes protobuf envelope (`k8s\0` + runtime.Unknown) for the core kinds that
 * kubectl's typed commands send as protobuf (`kubectl create namespace`, `kubectl create secret`).
 * Only the fields of Namespace, Secret, Lease, the RBAC kinds and the access reviews (and
 * ObjectMeta) are known; others are skipped (a SubjectAccessReview's `extra` among them).
 */
import { unsupportedMediaType } from './api-errors.js';
import type { JsonObject, JsonValue } from './kube-object.js';

type Scalar = 'string' | 'bytes' | 'int' | 'bool' | 'time';
interface FieldSpec {
  name: string;
  type: Scalar | MessageSpec;
  repeated?: boolean;
  /** A map<string, string|bytes>: repeated entries {key = 1, value = 2}. */
  map?: 'string' | 'bytes';
}
type MessageSpec = Record<number, FieldSpec>;

const ownerReference: MessageSpec = {
  1: { name: 'kind', type: 'string' },
  3: { name: 'name', type: 'string' },
  4: { name: 'uid', type: 'string' },
  5: { name: 'apiVersion', type: 'string' },
  6: { name: 'controller', type: 'bool' },
  7: { name: 'blockOwnerDeletion', type: 'bool' },
};

const objectMeta: MessageSpec = {
  1: { name: 'name', type: 'string' },
  2: { name: 'generateName', type: 'string' },
  3: { name: 'namespace', type: 'string' },
  5: { name: 'uid', type: 'string' },
  6: { name: 'resourceVersion', type: 'string' },
  7: { name: 'generation', type: 'int' },
  11: { name: 'labels', type: 'string', map: 'string' },
  12: { name: 'annotations', type: 'string', map: 'string' },
  13: { name: 'ownerReferences', type: ownerReference, repeated: true },
  14: { name: 'finalizers', type: 'string', repeated: true },
};

const policyRule: MessageSpec = {
  1: { name: 'verbs', type: 'string', repeated: true },
  2: { name: 'apiGroups', type: 'string', repeated: true },
  3: { name: 'resources', type: 'string', repeated: true },
  4: { name: 'resourceNames', type: 'string', repeated: true },
  5: { name: 'nonResourceURLs', type: 'string', repeated: true },
};

const labelSelector: MessageSpec = {
  1: { name: 'matchLabels', type: 'string', map: 'string' },
  2: {
    name: 'matchExpressions',
    type: {
      1: { name: 'key', type: 'string' },
      2: { name: 'operator', type: 'string' },
      3: { name: 'values', type: 'string', repeated: true },
    },
    repeated: true,
  },
};

const binding: MessageSpec = {
  1: { name: 'metadata', type: objectMeta },
  2: {
    name: 'subjects',
    type: {
      1: { name: 'kind', type: 'string' },
      2: { name: 'apiGroup', type: 'string' },
      3: { name: 'name', type: 'string' },
      4: { name: 'namespace', type: 'string' },
    },
    repeated: true,
  },
  3: {
    name: 'roleRef',
    type: {
      1: { name: 'apiGroup', type: 'string' },
      2: { name: 'kind', type: 'string' },
      3: { name: 'name', type: 'string' },
    },
  },
};

const accessAttributes: MessageSpec = {
  1: {
    name: 'resourceAttributes',
    type: {
      1: { name: 'namespace', type: 'string' },
      2: { name: 'verb', type: 'string' },
      3: { name: 'group', type: 'string' },
      4: { name: 'version', type: 'string' },
      5: { name: 'resource', type: 'string' },
      6: { name: 'subresource', type: 'string' },
      7: { name: 'name', type: 'string' },
    },
  },
  2: {
    name: 'nonResourceAttributes',
    type: { 1: { name: 'path', type: 'string' }, 2: { name: 'verb', type: 'string' } },
  },
};

const subjectAccessReview: MessageSpec = {
  1: { name: 'metadata', type: objectMeta },
  2: {
    name: 'spec',
    type: {
      ...accessAttributes,
      3: { name: 'user', type: 'string' },
      4: { name: 'groups', type: 'string', repeated: true },
      6: { name: 'uid', type: 'string' },
    },
  },
};

const kinds: Record<string, MessageSpec> = {
  Role: {
    1: { name: 'metadata', type: objectMeta },
    2: { name: 'rules', type: policyRule, repeated: true },
  },
  ClusterRole: {
    1: { name: 'metadata', type: objectMeta },
    2: { name: 'rules', type: policyRule, repeated: true },
    3: {
      name: 'aggregationRule',
      type: { 1: { name: 'clusterRoleSelectors', type: labelSelector, repeated: true } },
    },
  },
  RoleBinding: binding,
  ClusterRoleBinding: binding,
  SubjectAccessReview: subjectAccessReview,
  LocalSubjectAccessReview: subjectAccessReview,
  SelfSubjectAccessReview: {
    1: { name: 'metadata', type: objectMeta },
    2: { name: 'spec', type: accessAttributes },
  },
  SelfSubjectRulesReview: {
    1: { name: 'metadata', type: objectMeta },
    2: { name: 'spec', type: { 1: { name: 'namespace', type: 'string' } } },
  },
  SelfSubjectReview: { 1: { name: 'metadata', type: objectMeta } },
  Namespace: {
    1: { name: 'metadata', type: objectMeta },
    2: { name: 'spec', type: { 1: { name: 'finalizers', type: 'string', repeated: true } } },
  },
  Secret: {
    1: { name: 'metadata', type: objectMeta },
    2: { name: 'data', type: 'bytes', map: 'bytes' },
    3: { name: 'type', type: 'string' },
    4: { name: 'stringData', type: 'string', map: 'string' },
    5: { name: 'immutable', type: 'bool' },
  },
  Lease: {
    1: { name: 'metadata', type: objectMeta },
    2: {
      name: 'spec',
      type: {
        1: { name: 'holderIdentity', type: 'string' },
        2: { name: 'leaseDurationSeconds', type: 'int' },
        3: { name: 'acquireTime', type: 'time' },
        4: { name: 'renewTime', type: 'time' },
        5: { name: 'leaseTransitions', type: 'int' },
      },
    },
  },
};

interface WireField {
  field: number;
  value: bigint | Buffer;
}

function readVarint(buffer: Buffer, at: { offset: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const byte = buffer[at.offset];
    if (byte === undefined) throw new Error('truncated protobuf');
    at.offset += 1;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7n;
  }
}

function readFields(buffer: Buffer): WireField[] {
  const fields: WireField[] = [];
  const at = { offset: 0 };
  while (at.offset < buffer.length) {
    const tag = Number(readVarint(buffer, at));
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) fields.push({ field, value: readVarint(buffer, at) });
    else if (wire === 2) {
      const size = Number(readVarint(buffer, at));
      fields.push({ field, value: buffer.subarray(at.offset, at.offset + size) });
      at.offset += size;
    } else if (wire === 1) at.offset += 8;
    else if (wire === 5) at.offset += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return fields;
}

function scalar(type: Scalar, value: bigint | Buffer): JsonValue {
  if (typeof value === 'bigint') return type === 'bool' ? value !== 0n : Number(value);
  switch (type) {
    case 'string':
      return value.toString('utf8');
    case 'bytes':
      return value.toString('base64');
    case 'time': {
      const parts = readFields(value);
      const seconds = parts.find((part) => part.field === 1)?.value;
      const millis = typeof seconds === 'bigint' ? Number(seconds) * 1000 : 0;
      return new Date(millis).toISOString().replace(/\.\d+Z$/, 'Z');
    }
    case 'int':
    case 'bool':
      return null;
  }
}

function decodeMessage(spec: MessageSpec, buffer: Buffer): JsonObject {
  const out: JsonObject = {};
  for (const { field, value } of readFields(buffer)) {
    const fieldSpec = spec[field];
    if (fieldSpec === undefined) continue;
    let decoded: JsonValue;
    if (fieldSpec.map !== undefined && Buffer.isBuffer(value)) {
      const entry = readFields(value);
      const key = entry.find((part) => part.field === 1)?.value;
      const item = entry.find((part) => part.field === 2)?.value ?? Buffer.alloc(0);
      const map = (out[fieldSpec.name] ?? {}) as JsonObject;
      map[Buffer.isBuffer(key) ? key.toString('utf8') : ''] = scalar(fieldSpec.map, item);
      out[fieldSpec.name] = map;
      continue;
    }
    decoded =
      typeof fieldSpec.type === 'object'
        ? decodeMessage(fieldSpec.type, Buffer.isBuffer(value) ? value : Buffer.alloc(0))
        : scalar(fieldSpec.type, value);
    if (fieldSpec.repeated === true) {
      const list = (out[fieldSpec.name] ?? []) as JsonValue[];
      list.push(decoded);
      decoded = list;
    }
    out[fieldSpec.name] = decoded;
  }
  return out;
}

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export function decodeKubernetesProtobuf(body: Buffer): JsonObject {
  if (!body.subarray(0, 4).equals(magic))
    throw unsupportedMediaType('application/vnd.kubernetes.protobuf');
  const unknown = decodeMessage(
    {
      1: {
        name: 'typeMeta',
        type: { 1: { name: 'apiVersion', type: 'string' }, 2: { name: 'kind', type: 'string' } },
      },
      2: { name: 'raw', type: 'bytes' },
    },
    body.subarray(4),
  );
  const typeMeta = (unknown.typeMeta ?? {}) as JsonObject;
  const kind = typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
  const spec = kinds[kind];
  if (spec === undefined)
    throw unsupportedMediaType(`application/vnd.kubernetes.protobuf (kind ${kind})`);
  const raw = Buffer.from(typeof unknown.raw === 'string' ? unknown.raw : '', 'base64');
  return { apiVersion: typeMeta.apiVersion ?? 'v1', kind, ...decodeMessage(spec, raw) };
}
