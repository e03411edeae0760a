/** Writes crds/rbac/tollgate-cluster-roles.yaml and the Helm chart's copy from persona-roles.ts. */
import { writeFileSync } from 'node:fs';
import { ROLES_FILE, renderRolesYaml } from './render-roles-yaml.js';

const CHART_COPY = '../../charts/tollgate/files/persona-cluster-roles.yaml';
writeFileSync(new URL(ROLES_FILE, import.meta.url), renderRolesYaml());
writeFileSync(new URL(CHART_COPY, import.meta.url), renderRolesYaml());
console.log(`wrote crds/rbac/${ROLES_FILE} and charts/tollgate/files/persona-cluster-roles.yaml`);
