/**
 * The persona ClusterRoles (one source: the local control plane creates them at start, the chart
 * ships the generated `tollgate-cluster-roles.yaml`). See docs/rbac.md for how to bind them.
 */
import { API_GROUP } from '../schema/common-fields.js';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface ClusterRoleManifest {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole';
  metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string> };
  rules: PolicyRule[];
}

const read = ['get', 'list', 'watch'];
const write = ['create', 'update', 'patch', 'delete'];
const all = [...read, ...write, 'deletecollection'];

function clusterRole(name: string, description: string, rules: PolicyRule[]): ClusterRoleManifest {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { 'app.kubernetes.io/part-of': 'tollgate' },
      annotations: { 'tollgate.dev/description': description },
    },
    rules,
  };
}

export const personaRoles: ClusterRoleManifest[] = [
  clusterRole(
    'tollgate-viewer',
    'Reads ApiKeys (and so their usage), the Account and the Notifiers of the namespaces it is ' +
      'bound in, and the Groups when bound cluster-wide. Never Secrets.',
    [
      { verbs: read, apiGroups: [API_GROUP], resources: ['apikeys', 'accounts'] },
      { verbs: read, apiGroups: [API_GROUP], resources: ['groups', 'plans'] },
      // Notifications: the namespace's Notifiers and their delivery history.
      { verbs: read, apiGroups: [API_GROUP], resources: ['notifiers'] },
    ],
  ),
  clusterRole(
    'tollgate-key-manager',
    'The viewer, plus creating, editing (and resetting the quota of) and deleting ApiKeys and ' +
      'Notifiers, and creating the Secret of a chosen key value or a notifier, without reading Secrets.',
    [
      { verbs: read, apiGroups: [API_GROUP], resources: ['apikeys', 'accounts'] },
      { verbs: read, apiGroups: [API_GROUP], resources: ['groups', 'plans'] },
      { verbs: write, apiGroups: [API_GROUP], resources: ['apikeys'] },
      { verbs: ['create'], apiGroups: [''], resources: ['secrets'] },
      // Notifications: the namespace's Notifiers (their Secret is created like a key's).
      { verbs: [...read, ...write], apiGroups: [API_GROUP], resources: ['notifiers'] },
    ],
  ),
  clusterRole(
    'tollgate-group-reader',
    'Reads Groups (platform, multiplier, allowed namespaces) and Plans: bind it cluster-wide for users whose ' +
      'other Tollgate roles are bound in one namespace.',
    [{ verbs: read, apiGroups: [API_GROUP], resources: ['groups', 'plans'] }],
  ),
  clusterRole(
    'tollgate-admin',
    'Everything on Groups, Upstreams, Accounts, ApiKeys, Plans, Notifiers and ClusterNotifiers (not ' +
      'their status, which the operator owns). Upstream credentials need tollgate-upstream-credentials in the operator namespace.',
    [
      {
        verbs: all,
        apiGroups: [API_GROUP],
        resources: ['groups', 'upstreams', 'accounts', 'apikeys', 'plans'],
      },
      { verbs: ['get'], apiGroups: [API_GROUP], resources: ['apikeys/captures'] },
      // Notifications: every Notifier, and the ClusterNotifiers (administrators only).
      { verbs: all, apiGroups: [API_GROUP], resources: ['notifiers', 'clusternotifiers'] },
    ],
  ),
  clusterRole(
    'tollgate-capture-reader',
    'Reads the captured request and response bodies of the ApiKeys in the namespaces it is bound ' +
      'in (get apikeys/captures); bind it beside the viewer or key manager. Nothing else.',
    [{ verbs: ['get'], apiGroups: [API_GROUP], resources: ['apikeys/captures'] }],
  ),
  clusterRole(
    'tollgate-upstream-credentials',
    'Secrets in full: bind it with a RoleBinding in the operator namespace (tollgate-system) only, ' +
      'where the Upstream credentials live.',
    [{ verbs: all, apiGroups: [''], resources: ['secrets'] }],
  ),
];
