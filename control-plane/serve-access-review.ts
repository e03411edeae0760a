/**
 * The access reviews, answered on create and never stored: SubjectAccessReview (any user and
 * groups, exactly as given), LocalSubjectAccessReview (the same in one namespace),
 * SelfSubjectAccessReview (`kubectl auth can-i`), SelfSubjectRulesReview (`kubectl auth can-i
 * --list`) and SelfSubjectReview (`kubectl auth whoami`).
 */
import { badRequest, invalid } from './api-errors.js';
import { authorize } from './authorize-request.js';
import type { RbacObjects } from './evaluate-rbac.js';
import { rulesFor } from './evaluate-rbac.js';
import type { JsonObject, JsonValue } from './kube-object.js';
import { isJsonObject, objectField, stringField } from './kube-object.js';
import type { ResourceKind } from './resource-kind.js';
import { apiVersionOf } from './resource-kinds.js';
import type { RequestAttributes, UserInfo } from './request-attributes.js';

export interface ReviewCall {
  objects: RbacObjects;
  kind: ResourceKind;
  /** The namespace of the URL (LocalSubjectAccessReview). */
  namespace: string | undefined;
  body: JsonValue | undefined;
  user: UserInfo;
}

function text(object: JsonObject | undefined, key: string): string {
  return object === undefined ? '' : (stringField(object, key) ?? '');
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

function attributesOf(call: ReviewCall, spec: JsonObject): RequestAttributes {
  const resource = objectField(spec, 'resourceAttributes');
  const nonResource = objectField(spec, 'nonResourceAttributes');
  if ((resource === undefined) === (nonResource === undefined)) {
    throw invalid({ group: call.kind.group, kind: call.kind.kind, name: '' }, [
      {
        reason: 'FieldValueRequired',
        message:
          'Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
        field: 'spec.resourceAttributes',
      },
    ]);
  }
  if (nonResource !== undefined) {
    return {
      resourceRequest: false,
      verb: text(nonResource, 'verb'),
      path: text(nonResource, 'path'),
    };
  }
  return {
    resourceRequest: true,
    verb: text(resource, 'verb'),
    apiGroup: text(resource, 'group'),
    apiVersion: text(resource, 'version'),
    namespace: text(resource, 'namespace'),
    resource: text(resource, 'resource'),
    subresource: text(resource, 'subresource'),
    name: text(resource, 'name'),
  };
}

function subjectOf(call: ReviewCall, spec: JsonObject): UserInfo {
  if (call.kind.kind === 'SelfSubjectAccessReview') return call.user;
  const name = text(spec, 'user');
  const groups = strings(spec.groups);
  if (name === '' && groups.length === 0) {
    throw invalid({ group: call.kind.group, kind: call.kind.kind, name: '' }, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "": at least one of user or group must be specified',
        field: 'spec.user',
      },
    ]);
  }
  const extra: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(objectField(spec, 'extra') ?? {})) {
    extra[key] = strings(value);
  }
  return { name, uid: text(spec, 'uid'), groups, extra };
}

function accessReview(call: ReviewCall, review: JsonObject): JsonObject {
  const spec = objectField(review, 'spec') ?? {};
  const attributes = attributesOf(call, spec);
  if (call.kind.kind === 'LocalSubjectAccessReview' && attributes.resourceRequest) {
    const namespace = call.namespace ?? '';
    if (attributes.namespace === '') {
      attributes.namespace = namespace;
      const resource = objectField(spec, 'resourceAttributes');
      if (resource !== undefined) resource.namespace = namespace;
    }
    if (attributes.namespace !== namespace) {
      throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    }
  }
  const decision = authorize(call.objects, { user: subjectOf(call, spec), attributes });
  const status: JsonObject = { allowed: decision.allowed };
  if (decision.reason !== '') status.reason = decision.reason;
  return { ...review, spec, status };
}

function rulesReview(call: ReviewCall, review: JsonObject): JsonObject {
  const spec = objectField(review, 'spec') ?? {};
  const namespace = text(spec, 'namespace');
  if (namespace === '') throw badRequest('no namespace on request');
  const found = rulesFor(call.objects, { user: call.user, namespace });
  const resourceRules: JsonObject[] = [];
  const nonResourceRules: JsonObject[] = [];
  for (const rule of found.rules) {
    if (rule.resources.length > 0) {
      const out: JsonObject = {
        verbs: rule.verbs,
        apiGroups: rule.apiGroups,
        resources: rule.resources,
      };
      if (rule.resourceNames.length > 0) out.resourceNames = rule.resourceNames;
      resourceRules.push(out);
    }
    if (rule.nonResourceURLs.length > 0) {
      nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
    }
  }
  const status: JsonObject = { resourceRules, nonResourceRules, incomplete: false };
  if (found.errors.length > 0) status.evaluationError = found.errors.join(', ');
  return { ...review, spec, status };
}

function whoAmI(call: ReviewCall, review: JsonObject): JsonObject {
  const userInfo: JsonObject = { username: call.user.name, groups: call.user.groups };
  if (call.user.uid !== '') userInfo.uid = call.user.uid;
  if (Object.keys(call.user.extra).length > 0) userInfo.extra = call.user.extra;
  return { ...review, status: { userInfo } };
}

/** The review with its status filled in (HTTP 201, as the API server answers a create). */
export function serveAccessReview(call: ReviewCall): JsonObject {
  const body = isJsonObject(call.body) ? structuredClone(call.body) : {};
  const metadata = isJsonObject(body.metadata) ? body.metadata : {};
  metadata.creationTimestamp = null;
  const review: JsonObject = {
    ...body,
    kind: call.kind.kind,
    apiVersion: apiVersionOf(call.kind),
    metadata,
  };
  if (call.namespace !== undefined) metadata.namespace = call.namespace;
  switch (call.kind.kind) {
    case 'SelfSubjectRulesReview':
      return rulesReview(call, review);
    case 'SelfSubjectReview':
      return whoAmI(call, review);
    default:
      return accessReview(call, review);
  }
}
