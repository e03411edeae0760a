/**
 * One kind the local control plane serves: its names, scope, schema and printer columns. The shape
 * only; the table of kinds is in resource-kinds.ts (core kinds and the Tollgate CRDs) and
 * rbac-kinds.ts (the RBAC kinds), which both import it.
 */
import type { OpenApiSchema } from '../crds/schema/schema-builder.js';
import type { KubeObject } from './kube-object.js';

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath?: string;
  priority?: number;
  description?: string;
  /** Core kinds compute some cells (Secret DATA) instead of reading a path. */
  compute?: (object: KubeObject) => string | number;
}

export interface ResourceKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  namespaced: boolean;
  hasStatus: boolean;
  /** Tollgate kinds track spec generations; core kinds here do not. */
  tracksGeneration: boolean;
  schema: OpenApiSchema | undefined;
  printerColumns: PrinterColumn[];
  /** Discovery verbs when not the full set (the access reviews are create-only). */
  verbs?: readonly string[];
  /** An access review: answered on create, never stored. */
  review?: boolean;
}
