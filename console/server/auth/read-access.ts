/**
 * What the signed-in user may do, asked of Kubernetes RBAC as the user (SelfSubjectAccessReview,
 * impersonated): per resource the verbs `list`, `create`, `update`, `delete` on Groups,
 * Upstreams and Plans (cluster-scoped), Accounts (in every namespace) and, for one namespace, ApiKeys. The
 * web app shows or hides its links and buttons from this; the API server still decides each call.
 */
import type { UserKube } from '../kubernetes/user-kube.js';
import type { Access, Verbs } from './session-schemas.js';

const VERBS = ['list', 'create', 'update', 'delete'] as const;
type Verb = (typeof VERBS)[number];

async function verbsOn(
  kube: UserKube,
  resource: string,
  namespace: string | undefined,
): Promise<Verbs> {
  const answers = await Promise.all(
    VERBS.map((verb) =>
      kube.can({
        verb,
        group: 'tollgate.dev',
        resource,
        ...(namespace === undefined ? {} : { namespace }),
      }),
    ),
  );
  const verbs = {} as Record<Verb, boolean>;
  VERBS.forEach((verb, index) => {
    verbs[verb] = answers[index] === true;
  });
  return verbs;
}

export async function readAccess(kube: UserKube, namespace?: string): Promise<Access> {
  const [groups, upstreams, plans, accounts, keys] = await Promise.all([
    verbsOn(kube, 'groups', undefined),
    verbsOn(kube, 'upstreams', undefined),
    verbsOn(kube, 'plans', undefined),
    verbsOn(kube, 'accounts', undefined),
    namespace === undefined ? Promise.resolve(null) : verbsOn(kube, 'apikeys', namespace),
  ]);
  const writes = (verbs: Verbs) => verbs.create || verbs.update || verbs.delete;
  return {
    administer: writes(groups) || writes(upstreams) || writes(plans) || writes(accounts),
    groups,
    upstreams,
    plans,
    accounts,
    keys,
    namespace: namespace ?? null,
  };
}
