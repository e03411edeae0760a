/** Pure: the CustomResourceDefinition objects for the Tollgate kinds. */
import type { OpenApiSchema } from './schema/schema-builder.js';
import {
  API_GROUP,
  API_VERSION,
  resourceDefinitions,
  type ResourceDefinition,
} from './schema/resources.js';

export const CATEGORY = 'tollgate';

/** A CRD may restrict only `metadata.name` (and `generateName`); other metadata is the server's. */
function metadataSchema(definition: ResourceDefinition): OpenApiSchema {
  if (!('allowedNames' in definition)) return { type: 'object' };
  const name: OpenApiSchema = { type: 'string', enum: definition.allowedNames };
  return { type: 'object', properties: { name } };
}

function rootSchema(definition: ResourceDefinition): OpenApiSchema {
  const schema: OpenApiSchema = {
    type: 'object',
    description: `${definition.kind} (${API_GROUP}/${API_VERSION}).`,
    properties: {
      apiVersion: { type: 'string', maxLength: 253 },
      kind: { type: 'string', maxLength: 63 },
      metadata: metadataSchema(definition),
      spec: { ...definition.spec.openapi, default: {} },
      status: definition.status.openapi,
    },
  };
  return schema;
}

export function renderCrd(definition: ResourceDefinition): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${definition.plural}.${API_GROUP}` },
    spec: {
      group: API_GROUP,
      names: {
        kind: definition.kind,
        listKind: `${definition.kind}List`,
        plural: definition.plural,
        singular: definition.singular,
        shortNames: definition.shortNames,
        categories: [CATEGORY],
      },
      scope: definition.scope,
      versions: [
        {
          name: API_VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: rootSchema(definition) },
          subresources: { status: {} },
          additionalPrinterColumns: definition.printerColumns,
        },
      ],
    },
  };
}

export function renderAllCrds(): { fileName: string; crd: Record<string, unknown> }[] {
  return resourceDefinitions.map((definition) => ({
    fileName: `${API_GROUP}_${definition.plural}.yaml`,
    crd: renderCrd(definition),
  }));
}
