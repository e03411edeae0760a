import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { personaRoles } from './persona-roles.js';
import { ROLES_FILE, renderRolesYaml } from './render-roles-yaml.js';

describe('persona ClusterRoles', () => {
  it('the committed YAML matches the source', () => {
    const committed = readFileSync(new URL(ROLES_FILE, import.meta.url), 'utf8');
    expect(committed, 'run `npx tsx crds/rbac/generate-roles.ts` and commit').toBe(
      renderRolesYaml(),
    );
  });

  it('the YAML holds one ClusterRole per persona', () => {
    const documents = parseAllDocuments(renderRolesYaml()).map(
      (document) => document.toJS() as { kind: string; metadata: { name: string } },
    );
    expect(documents.map((document) => document.metadata.name)).toEqual(
      personaRoles.map((role) => role.metadata.name),
    );
    expect(new Set(documents.map((document) => document.kind))).toEqual(new Set(['ClusterRole']));
  });

  it('no persona but the credentials role can read Secrets', () => {
    for (const role of personaRoles) {
      const readsSecrets = role.rules.some(
        (rule) =>
          (rule.resources ?? []).includes('secrets') &&
          rule.verbs.some((verb) => ['get', 'list', 'watch', '*'].includes(verb)),
      );
      expect(readsSecrets, role.metadata.name).toBe(
        role.metadata.name === 'tollgate-upstream-credentials',
      );
    }
  });

  it('only the capture reader and the admin may read captured bodies', () => {
    const readsCaptures = personaRoles
      .filter((role) =>
        role.rules.some(
          (rule) =>
            (rule.resources ?? []).some((resource) =>
              ['apikeys/captures', 'apikeys/*', '*/captures', '*'].includes(resource),
            ) && rule.verbs.some((verb) => ['get', '*'].includes(verb)),
        ),
      )
      .map((role) => role.metadata.name);
    expect(readsCaptures).toEqual(['tollgate-admin', 'tollgate-capture-reader']);
  });
});
