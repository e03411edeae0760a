/** The kinds the local control plane serves: core kinds plus the Tollgate CRDs (from renderCrd). */
import { CATEGORY, renderAllCrds } from '../crds/render-crds.js';
import type { OpenApiSchema } from '../crds/schema/schema-builder.js';
import type { JsonObject } from './kube-object.js';
import { isJsonObject, objectField, textOf } from './kube-object.js';
import { rbacKinds } from './rbac-kinds.js';
import type { PrinterColumn, ResourceKind } from './resource-kind.js';

export const VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

const coreKinds: ResourceKind[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    singular: 'namespace',
    shortNames: ['ns'],
    categories: [],
    namespaced: false,
    hasStatus: true,
    tracksGeneration: false,
    schema: undefined,
    printerColumns: [{ name: 'Status', type: 'string', jsonPath: '.status.phase' }, age],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    singular: 'secret',
    shortNames: [],
    categories: [],
    namespaced: true,
    hasStatus: false,
    tracksGeneration: false,
    schema: undefined,
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.type' },
      {
        name: 'Data',
        type: 'integer',
        compute: (object) => Object.keys(objectField(object, 'data') ?? {}).length,
      },
      age,
    ],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    categories: [],
    namespaced: true,
    hasStatus: false,
    tracksGeneration: false,
    schema: undefined,
    printerColumns: [age],
  },
  {
    group: 'events.k8s.io',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: [],
    categories: [],
    namespaced: true,
    hasStatus: false,
    tracksGeneration: false,
    schema: undefined,
    printerColumns: [age],
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    plural: 'leases',
    singular: 'lease',
    shortNames: [],
    categories: [],
    namespaced: true,
    hasStatus: false,
    tracksGeneration: false,
    schema: undefined,
    printerColumns: [{ name: 'Holder', type: 'string', jsonPath: '.spec.holderIdentity' }, age],
  },
];

function fromCrd(crd: JsonObject): ResourceKind {
  const spec = crd.spec as JsonObject;
  const names = spec.names as JsonObject;
  const version = (spec.versions as JsonObject[])[0] as JsonObject;
  const schema = (version.schema as JsonObject).openAPIV3Schema as unknown as OpenApiSchema;
  const columns = (version.additionalPrinterColumns as JsonObject[]).map((column) => {
    const out: PrinterColumn = {
      name: textOf(column.name),
      type: textOf(column.type),
      jsonPath: textOf(column.jsonPath),
    };
    if (typeof column.priority === 'number') out.priority = column.priority;
    if (typeof column.description === 'string') out.description = column.description;
    return out;
  });
  return {
    group: textOf(spec.group),
    version: textOf(version.name),
    kind: textOf(names.kind),
    plural: textOf(names.plural),
    singular: textOf(names.singular),
    shortNames: (names.shortNames as string[] | undefined) ?? [],
    categories: (names.categories as string[] | undefined) ?? [CATEGORY],
    namespaced: spec.scope === 'Namespaced',
    hasStatus: isJsonObject(version.subresources) && 'status' in version.subresources,
    tracksGeneration: true,
    schema,
    printerColumns: columns,
  };
}

export function loadResourceKinds(): ResourceKind[] {
  const crdKinds = renderAllCrds().map(({ crd }) => fromCrd(structuredClone(crd) as JsonObject));
  return [...coreKinds, ...rbacKinds, ...crdKinds];
}

export function apiVersionOf(kind: ResourceKind): string {
  return kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
}

export function findKind(
  kinds: readonly ResourceKind[],
  where: { group: string; version: string; plural: string },
): ResourceKind | undefined {
  return kinds.find(
    (kind) =>
      kind.group === where.group && kind.version === where.version && kind.plural === where.plural,
  );
}
