/** The Tollgate kinds: zod schemas and TypeScript types, from the same source as crds/*.yaml. */
import type { z } from 'zod';
import { accountDefinition } from './account.js';
import { apiKeyDefinition } from './api-key.js';
import type { API_VERSION } from './common-fields.js';
import { API_GROUP } from './common-fields.js';
import { groupDefinition } from './group.js';
import { clusterNotifierDefinition, notifierDefinition } from './notifier.js';
import { planDefinition } from './plan.js';
import { upstreamDefinition } from './upstream.js';

export { API_GROUP, API_VERSION, PLATFORMS, type Platform } from './common-fields.js';
export { WINDOW_NAMES } from './api-key.js';

export const resourceDefinitions = [
  apiKeyDefinition,
  groupDefinition,
  upstreamDefinition,
  accountDefinition,
  planDefinition,
  notifierDefinition,
  clusterNotifierDefinition,
] as const;

export type ResourceDefinition = (typeof resourceDefinitions)[number];
export type Kind = ResourceDefinition['kind'];

export const apiKeySpecSchema = apiKeyDefinition.spec.zod;
export const apiKeyStatusSchema = apiKeyDefinition.status.zod;
export const groupSpecSchema = groupDefinition.spec.zod;
export const groupStatusSchema = groupDefinition.status.zod;
export const upstreamSpecSchema = upstreamDefinition.spec.zod;
export const upstreamStatusSchema = upstreamDefinition.status.zod;
export const accountSpecSchema = accountDefinition.spec.zod;
export const accountStatusSchema = accountDefinition.status.zod;
export const planSpecSchema = planDefinition.spec.zod;
export const planStatusSchema = planDefinition.status.zod;

export type ApiKeySpec = z.output<typeof apiKeySpecSchema>;
export type ApiKeyStatus = z.output<typeof apiKeyStatusSchema>;
export type GroupSpec = z.output<typeof groupSpecSchema>;
export type GroupStatus = z.output<typeof groupStatusSchema>;
export type UpstreamSpec = z.output<typeof upstreamSpecSchema>;
export type UpstreamStatus = z.output<typeof upstreamStatusSchema>;
export type AccountSpec = z.output<typeof accountSpecSchema>;
export type AccountStatus = z.output<typeof accountStatusSchema>;
export const notifierSpecSchema = notifierDefinition.spec.zod;
export const notifierStatusSchema = notifierDefinition.status.zod;
export const clusterNotifierSpecSchema = clusterNotifierDefinition.spec.zod;
export type NotifierSpec = z.output<typeof notifierSpecSchema>;
export type ClusterNotifierSpec = z.output<typeof clusterNotifierSpecSchema>;
export type NotifierStatus = z.output<typeof notifierStatusSchema>;
export type PlanSpec = z.output<typeof planSpecSchema>;
export type PlanStatus = z.output<typeof planStatusSchema>;
export type Condition = NonNullable<ApiKeyStatus['conditions']>[number];

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  generation: number;
  creationTimestamp: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: {
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }[];
}

export interface Resource<K extends string, Spec, Status> {
  apiVersion: `${typeof API_GROUP}/${typeof API_VERSION}`;
  kind: K;
  metadata: ObjectMeta;
  spec: Spec;
  status?: Status;
}

export type ApiKey = Resource<'ApiKey', ApiKeySpec, ApiKeyStatus>;
export type Group = Resource<'Group', GroupSpec, GroupStatus>;
export type Upstream = Resource<'Upstream', UpstreamSpec, UpstreamStatus>;
export type Account = Resource<'Account', AccountSpec, AccountStatus>;
export type Plan = Resource<'Plan', PlanSpec, PlanStatus>;
export type Notifier = Resource<'Notifier', NotifierSpec, NotifierStatus>;
export type ClusterNotifier = Resource<'ClusterNotifier', ClusterNotifierSpec, NotifierStatus>;

export const FINALIZER = `${API_GROUP}/finalizer`;
export const RESET_QUOTA_ANNOTATION = `${API_GROUP}/reset-quota`;
export const API_KEY_SECRET_TYPE = `${API_GROUP}/api-key`;
export const API_KEY_NAME_LABEL = `${API_GROUP}/api-key-name`;
/** Marks a Secret a Notifier may read (value "true"); see docs/notifications.md. */
export const NOTIFIER_SECRET_LABEL = `${API_GROUP}/notifier-secret`;
