/**
 * Pure: what the API server does to a write before storing it: kind-specific normalisation (Secret
 * `stringData`, Namespace phase), CRD defaulting, pruning, schema validation and CEL rules.
 */
import type { StatusCause } from './api-errors.js';
import { badRequest, invalid } from './api-errors.js';
import { evaluateCelRules } from './evaluate-cel-rules.js';
import type { JsonObject, KubeObject } from './kube-object.js';
import { isJsonObject, objectName } from './kube-object.js';
import type { ResourceKind } from './resource-kind.js';
import { apiVersionOf } from './resource-kinds.js';
import { RBAC_GROUP } from './rbac-kinds.js';
import { normaliseRbacObject, pathSegmentProblems, validateRbacObject } from './validate-rbac.js';
import { validateSchema } from './validate-schema.js';

const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

function checkName(kind: ResourceKind, name: string): StatusCause[] {
  if (kind.group === RBAC_GROUP && name !== '') {
    return pathSegmentProblems(name).map((problem) => ({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${name}": ${problem}`,
      field: 'metadata.name',
    }));
  }
  const pattern = kind.kind === 'Namespace' ? label : subdomain;
  const limit = kind.kind === 'Namespace' ? 63 : 253;
  if (name === '')
    return [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ];
  if (name.length > limit || !pattern.test(name)) {
    return [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": a lowercase RFC 1123 ${kind.kind === 'Namespace' ? 'label' : 'subdomain'} must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
        field: 'metadata.name',
      },
    ];
  }
  return [];
}

function normaliseSecret(object: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const data: JsonObject = isJsonObject(object.data) ? { ...object.data } : {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !base64.test(value) || value.length % 4 !== 0) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: 'Invalid value: illegal base64 data',
        field: `data[${key}]`,
      });
    }
  }
  if (isJsonObject(object.stringData)) {
    for (const [key, value] of Object.entries(object.stringData)) {
      data[key] = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString(
        'base64',
      );
    }
  }
  delete object.stringData;
  if (Object.keys(data).length > 0) object.data = data;
  else delete object.data;
  if (typeof object.type !== 'string' || object.type === '') object.type = 'Opaque';
  return causes;
}

/** `metav1.ObjectMeta` fields are all `omitempty`: an API server never stores `annotations: {}`. */
function dropEmptyMetadata(object: KubeObject): void {
  for (const [key, value] of Object.entries(object.metadata)) {
    const empty =
      value === null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0) ||
      (isJsonObject(value) && Object.keys(value).length === 0);
    if (empty) Reflect.deleteProperty(object.metadata, key);
  }
}

const annotationBytesLimit = 256 * 1024;

/** The API server's cap on all annotations of one object together (keys plus values). */
function checkAnnotationSize(object: KubeObject): StatusCause[] {
  const annotations = object.metadata.annotations;
  if (!isJsonObject(annotations)) return [];
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations)) {
    bytes += Buffer.byteLength(key) + Buffer.byteLength(typeof value === 'string' ? value : '');
  }
  if (bytes <= annotationBytesLimit) return [];
  return [
    {
      reason: 'FieldValueTooLong',
      message: `Too long: may not be more than ${annotationBytesLimit} bytes`,
      field: 'metadata.annotations',
    },
  ];
}

export interface Admission {
  kind: ResourceKind;
  object: KubeObject;
  old: KubeObject | undefined;
  strictFields: boolean;
}

/** Returns the object to store, or throws 400/422 Status errors. */
export function admitObject(admission: Admission): KubeObject {
  const { kind, old } = admission;
  const given = structuredClone(admission.object);
  const object = kind.group === RBAC_GROUP ? normaliseRbacObject(given) : given;
  const target = { group: kind.group, kind: kind.kind, name: objectName(object) };
  if (object.apiVersion !== apiVersionOf(kind) || object.kind !== kind.kind) {
    throw badRequest(
      `the API version in the data (${object.apiVersion}) does not match the expected API version (${apiVersionOf(kind)})`,
    );
  }
  dropEmptyMetadata(object);
  const causes = checkName(kind, objectName(object));
  causes.push(...checkAnnotationSize(object));
  if (kind.kind === 'Secret') causes.push(...normaliseSecret(object));
  if (kind.kind === 'Namespace') object.status = { phase: 'Active' };
  if (kind.group === RBAC_GROUP) causes.push(...validateRbacObject(object, old));
  let admitted = object;
  if (kind.schema !== undefined) {
    const result = validateSchema(kind.schema, object);
    if (admission.strictFields && result.pruned.length > 0) {
      throw badRequest(
        `${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: strict decoding error: ${result.pruned.map((path) => `unknown field "${path}"`).join(', ')}`,
      );
    }
    admitted = result.value as KubeObject;
    causes.push(...result.causes);
    causes.push(...evaluateCelRules(kind.schema, { value: admitted, old }));
  }
  if (causes.length > 0) throw invalid(target, causes);
  return admitted;
}
