/**
 * `GET /v1/usage` and `GET /antigravity/v1/usage`: the calling key's quota, windows and usage
 * (render-key-usage.ts), for clients that show a balance (CC Switch's usage script). The key is
 * authorized like a model list (missing, unknown, suspended, expired, source ranges refused the
 * same way) from any of the headers the gateway reads a key from; the answer is built from that
 * key's own counters only, so no key can read another's. A key whose account has a plan or member
 * limits also gets `subscription` (the account's plan windows) and `member` (its owner's budget:
 * the spend of the owner's keys, never another owner's) (render-budget-usage.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../../store/store.js';
import { GatewayError } from '../errors/gateway-error.js';
import '../stages/request/route-config.js';
import type { RouteProfile } from '../stages/request/route-profile.js';
import { renderKeyUsage } from './render-key-usage.js';
import type { AuthorizedPolicy } from '../stages/authorize/authorize-request.js';
import { renderMemberUsage, renderSubscriptionUsage } from './render-budget-usage.js';

type UsageStore = Pick<Store, 'keyCounters' | 'getAccount' | 'accountCounters' | 'memberCounters'>;

/** The subscription and member parts, read only for a key whose account has either. */
async function readBudgetUsage(store: UsageStore, key: AuthorizedPolicy, now: number) {
  if (key.budget === undefined) return {};
  const account = await store.getAccount(key.namespace);
  if (account === null) return {};
  const subscription =
    account.plan === undefined
      ? undefined
      : renderSubscriptionUsage(account, {
          counters: await store.accountCounters(key.namespace),
          now,
        });
  const owner = key.owner;
  const member =
    owner === undefined || account.memberLimits === undefined
      ? undefined
      : renderMemberUsage(account, {
          owner,
          counters: await store.memberCounters(key.namespace, owner, now),
        });
  return {
    ...(subscription === undefined ? {} : { subscription }),
    ...(member === undefined ? {} : { member }),
  };
}

const anyKeyHeader: RouteProfile['keySources'] = ['bearer', 'x-api-key', 'x-goog-api-key'];

export const USAGE_ROUTES: { path: string; profile: RouteProfile }[] = [
  {
    path: '/v1/usage',
    profile: {
      platforms: ['Anthropic', 'OpenAI', 'Gemini', 'Antigravity'],
      keySources: anyKeyHeader,
      errorShape: 'by-platform',
      forwarded: false,
    },
  },
  {
    path: '/antigravity/v1/usage',
    profile: {
      platforms: ['Antigravity'],
      keySources: anyKeyHeader,
      errorShape: 'by-platform',
      forwarded: false,
    },
  },
];

export function registerUsageRoutes(
  app: FastifyInstance,
  dependencies: { store: UsageStore; clock: () => number },
): void {
  for (const route of USAGE_ROUTES) {
    app.get(route.path, { config: { profile: route.profile } }, async (request: FastifyRequest) => {
      const key = request.tollgate.authorized;
      if (key === null)
        throw new GatewayError('TG_INTERNAL', { detail: 'usage route without a key' });
      const now = dependencies.clock();
      const counters = await dependencies.store.keyCounters(key.namespace, key.keyUid, now);
      return {
        ...renderKeyUsage(key, counters),
        ...(await readBudgetUsage(dependencies.store, key, now)),
      };
    });
  }
}
