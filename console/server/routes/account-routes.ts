/**
 * The accounts (namespaces) the user can see: those where a SelfSubjectAccessReview as the user
 * allows `get` on apikeys, with the Account's balance, spend and concurrency when readable.
 * Namespaces are listed with the console's own identity (it needs `list namespaces`).
 */
import type { Account } from '../../../crds/schema/resources.js';
import { defineRoute, session, type ApiRoute } from '../api/api-route.js';
import type { ConsoleContext } from '../console-context.js';
import { isConsoleError } from '../console-error.js';
import { mapKubeError } from '../kubernetes/map-kube-error.js';
import { resourcePath } from '../kubernetes/resource-paths.js';
import { accountListSchema, type AccountView } from './account-schemas.js';

export function accountView(namespace: string, account: Account | undefined): AccountView {
  const ready = account?.status?.conditions?.find((condition) => condition.type === 'Ready');
  return {
    namespace,
    displayName: account?.spec.displayName ?? null,
    creditUSD: account?.spec.creditUSD === undefined ? null : String(account.spec.creditUSD),
    spentUSD: account?.status?.spentUSD ?? null,
    balanceUSD: account?.status?.balanceUSD ?? null,
    maxConcurrentRequests: account?.spec.maxConcurrentRequests ?? null,
    ready: ready === undefined ? null : { status: ready.status, reason: ready.reason },
    hasAccount: account !== undefined,
  };
}

export function accountRoutes(context: ConsoleContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/accounts',
      summary: 'The accounts (namespaces) whose keys the user may read, with balance and spend.',
      tag: 'Accounts',
      response: accountListSchema,
      handler: async (call) => {
        const { kube } = session(call);
        let namespaces: { items: { metadata: { name: string } }[] };
        try {
          namespaces = await context.kube.call({
            method: 'GET',
            path: resourcePath({ kind: 'Namespace' }),
          });
        } catch (error) {
          throw mapKubeError(error);
        }
        const items = [];
        for (const namespace of namespaces.items.map((item) => item.metadata.name).sort()) {
          const allowed = await kube.can({
            verb: 'get',
            group: 'tollgate.dev',
            resource: 'apikeys',
            namespace,
          });
          if (!allowed) continue;
          const account = await kube
            .get<Account>({ kind: 'Account', namespace, name: 'default' })
            .catch((error: unknown) => {
              if (isConsoleError(error) && (error.statusCode === 404 || error.statusCode === 403)) {
                return undefined;
              }
              throw error;
            });
          items.push(accountView(namespace, account));
        }
        return { items };
      },
    }),
  ];
}
