/** Pure: the discovery documents (`/api`, `/api/v1`, `/apis`, `/apis/<group>[/<version>]`, `/version`). */
import type { JsonObject } from './kube-object.js';
import type { ResourceKind } from './resource-kind.js';
import { VERBS } from './resource-kinds.js';

function groupsOf(kinds: readonly ResourceKind[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const kind of kinds) {
    if (kind.group === '') continue;
    const versions = groups.get(kind.group) ?? [];
    if (!versions.includes(kind.version)) versions.push(kind.version);
    groups.set(kind.group, versions);
  }
  return groups;
}

function apiGroup(name: string, versions: readonly string[]): JsonObject {
  const entries = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: entries, preferredVersion: entries[0] ?? {} };
}

export function apiVersions(serverAddress: string): JsonObject {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroupList(kinds: readonly ResourceKind[]): JsonObject {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groupsOf(kinds)].map(([name, versions]) => apiGroup(name, versions)),
  };
}

export function apiGroupDocument(
  kinds: readonly ResourceKind[],
  group: string,
): JsonObject | undefined {
  const versions = groupsOf(kinds).get(group);
  if (versions === undefined) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) };
}

export function apiResourceList(
  kinds: readonly ResourceKind[],
  where: { group: string; version: string },
): JsonObject | undefined {
  const selected = kinds.filter(
    (kind) => kind.group === where.group && kind.version === where.version,
  );
  if (selected.length === 0) return undefined;
  const resources: JsonObject[] = [];
  for (const kind of selected) {
    const resource: JsonObject = {
      name: kind.plural,
      singularName: kind.singular,
      namespaced: kind.namespaced,
      kind: kind.kind,
      verbs: [...(kind.verbs ?? VERBS)],
    };
    if (kind.shortNames.length > 0) resource.shortNames = kind.shortNames;
    if (kind.categories.length > 0) resource.categories = kind.categories;
    resources.push(resource);
    if (kind.hasStatus) {
      resources.push({
        name: `${kind.plural}/status`,
        singularName: '',
        namespaced: kind.namespaced,
        kind: kind.kind,
        verbs: ['get', 'patch', 'update'],
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: where.group === '' ? where.version : `${where.group}/${where.version}`,
    resources,
  };
}

export function versionInfo(): JsonObject {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0-tollgate-local',
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'none',
    compiler: 'tollgate',
    platform: `${process.platform}/${process.arch}`,
  };
}
