/**
 * Member budgets in a namespace: spend per owner (ApiKey `spec.owner`) over today, the last 7 days
 * and the last 30 days from the ledger (ledger/queries/member-spend.ts), with the Account's
 * `memberLimits`, for users allowed to `get` the namespace's ApiKeys. The live windows of one
 * owner are in `GET /v1/usage` of their keys and in the store; this view is the ledger's.
 */
import type { Account } from '../../../crds/schema/resources.js';
import { queryMemberSpend } from '../../../ledger/queries/member-spend.js';
import { defineRoute, type ApiRoute } from '../api/api-route.js';
import type { ConsoleContext } from '../console-context.js';
import { isConsoleError } from '../console-error.js';
import { memberSpendSchema } from './member-schemas.js';
import { authorizeUsage } from './usage-routes.js';

const usd = (nano: number) => nano / 1e9;

export function memberRoutes(context: ConsoleContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/accounts/{namespace}/usage/members',
      summary:
        "Spend per key owner over today, 7 and 30 days (the ledger), with the Account's member limits.",
      tag: 'Usage',
      response: memberSpendSchema,
      handler: async (call) => {
        const { kube, namespace, ledger } = await authorizeUsage(call, context);
        const account = await kube
          .get<Account>({ kind: 'Account', namespace, name: 'default' })
          .catch((error: unknown) => {
            if (isConsoleError(error) && (error.statusCode === 404 || error.statusCode === 403)) {
              return undefined;
            }
            throw error;
          });
        const limits = account?.spec.memberLimits;
        const text = (value: string | number | undefined) =>
          value === undefined ? null : String(value);
        const timeZone = account?.spec.timeZone ?? context.config.timeZone;
        const [members, administers] = await Promise.all([
          queryMemberSpend(ledger, { namespace, now: context.now(), timeZone }),
          kube.can({ verb: 'update', group: 'tollgate.dev', resource: 'accounts', namespace }),
        ]);
        const viewer = kube.identity.username;
        const shown = administers ? members : members.filter((member) => member.owner === viewer);
        return {
          namespace,
          viewer,
          scope: administers ? ('all' as const) : ('own' as const),
          timeZone,
          memberLimits: {
            dailyUSD: text(limits?.dailyUSD),
            weeklyUSD: text(limits?.weeklyUSD),
            monthlyUSD: text(limits?.monthlyUSD),
          },
          members: shown.map((member) => ({
            owner: member.owner,
            todayUSD: usd(member.todayNano),
            sevenDaysUSD: usd(member.sevenDaysNano),
            thirtyDaysUSD: usd(member.thirtyDaysNano),
            requests30Days: member.requests30Days,
          })),
        };
      },
    }),
  ];
}
