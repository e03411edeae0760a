/**
 * Test support: validates a rendered object twice.
 * 1. Against the Kubernetes OpenAPI schemas shipped by `kubernetes-models` (and its Gateway API
 *    and prometheus-operator packages): types, required fields, formats, enums.
 * 2. Strictly, like `kubectl apply --validate=strict` / kubeconform -strict: every field must be
 *    one the API defines. The models above accept unknown fields, so this walks the object along
 *    @kubernetes/client-node's generated attribute maps (the same OpenAPI document, per field),
 *    for the kinds the client knows.
 * An object whose apiVersion and kind neither package knows is an error, never a silent pass.
 */
import * as kubernetesClient from '@kubernetes/client-node';
import type { KubernetesObject } from './render-chart.js';

interface Model {
  validate(): void;
}
type ModelClass = new (data: object) => Model;
type ModelModule = Record<string, unknown>;

const MODEL_MODULES: Record<string, () => Promise<ModelModule>> = {
  v1: () => import('kubernetes-models/v1'),
  'apps/v1': () => import('kubernetes-models/apps/v1'),
  'autoscaling/v2': () => import('kubernetes-models/autoscaling/v2'),
  'policy/v1': () => import('kubernetes-models/policy/v1'),
  'networking.k8s.io/v1': () => import('kubernetes-models/networking.k8s.io/v1'),
  'rbac.authorization.k8s.io/v1': () => import('kubernetes-models/rbac.authorization.k8s.io/v1'),
  'apiextensions.k8s.io/v1': () => import('kubernetes-models/apiextensions.k8s.io/v1'),
  'gateway.networking.k8s.io/v1': () =>
    import('@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1'),
  'monitoring.coreos.com/v1': () =>
    import('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1'),
};

interface Attribute {
  baseName: string;
  type: string;
}
type ClientModel = { getAttributeTypeMap(): Attribute[] };

function clientModel(name: string): ClientModel | undefined {
  const model = (kubernetesClient as Record<string, unknown>)[name];
  return typeof model === 'function' && 'getAttributeTypeMap' in model
    ? (model as unknown as ClientModel)
    : undefined;
}

/** `apps/v1` + `Deployment` → `V1Deployment`, `autoscaling/v2` + `HorizontalPodAutoscaler` → `V2…`. */
function clientModelName(apiVersion: string, kind: string): string {
  const version = apiVersion.split('/').at(-1) ?? '';
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
}

const CLIENT_GROUPS = new Set([
  'v1',
  'apps/v1',
  'autoscaling/v2',
  'policy/v1',
  'networking.k8s.io/v1',
  'rbac.authorization.k8s.io/v1',
  'apiextensions.k8s.io/v1',
]);

/** Unknown fields of `value` read as client-node type `type`, as JSON paths. */
function unknownFields(value: unknown, type: string, path: string): string[] {
  if (value === null || value === undefined) return [];
  const array = /^Array<(.+)>$/.exec(type);
  if (array?.[1] !== undefined) {
    if (!Array.isArray(value)) return [];
    const itemType = array[1];
    return value.flatMap((item, index) => unknownFields(item, itemType, `${path}[${index}]`));
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map?.[1] !== undefined) {
    if (typeof value !== 'object') return [];
    const valueType = map[1];
    return Object.entries(value).flatMap(([key, item]) =>
      unknownFields(item, valueType, `${path}.${key}`),
    );
  }
  const model = clientModel(type);
  if (model === undefined || typeof value !== 'object' || Array.isArray(value)) return [];
  const attributes = new Map(model.getAttributeTypeMap().map((each) => [each.baseName, each.type]));
  const found: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const attributeType = attributes.get(key);
    if (attributeType === undefined) found.push(`${path}.${key}`);
    else found.push(...unknownFields(item, attributeType, `${path}.${key}`));
  }
  return found;
}

/** The problems of one object: schema errors and unknown fields; empty when valid. */
export async function validateKubernetesObject(object: KubernetesObject): Promise<string[]> {
  const load = MODEL_MODULES[object.apiVersion];
  if (load === undefined) return [`no schema for apiVersion ${object.apiVersion}`];
  const module = await load();
  const Class = module[object.kind] as ModelClass | undefined;
  if (typeof Class !== 'function') return [`no schema for ${object.apiVersion} ${object.kind}`];
  const problems: string[] = [];
  try {
    new Class(object).validate();
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  if (CLIENT_GROUPS.has(object.apiVersion)) {
    const name = clientModelName(object.apiVersion, object.kind);
    if (clientModel(name) === undefined) problems.push(`no field list for ${name}`);
    else problems.push(...unknownFields(object, name, '').map((path) => `unknown field ${path}`));
  }
  return problems;
}
