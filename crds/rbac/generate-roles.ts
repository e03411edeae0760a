/** Writes crds/rbac/tollgate-cluster-roles.yaml from persona-roles.ts. */
import { writeFileSync } from 'node:fs';
import { ROLES_FILE, renderRolesYaml } from './render-roles-yaml.js';

writeFileSync(new URL(ROLES_FILE, import.meta.url), renderRolesYaml());
console.log(`wrote crds/rbac/${ROLES_FILE}`);
