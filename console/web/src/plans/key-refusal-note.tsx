/**
 * On a key's page: why the gateway refuses its calls now, when the reason is an account-wide
 * budget (the plan's window used up, the subscription ended, the owner's member budget used up),
 * with the refusal's code as the caller receives it. Read from the Account's status and the
 * member spend; nothing is shown while none applies.
 */
import { useQuery } from '@tanstack/react-query';
import type { KeyView } from '../api/console-api.js';
import { memberQueries } from '../members/member-queries.js';
import { usageQueries } from '../usage/usage-queries.js';
import { refusalsOf } from './budget-level.js';
import './plans.css';

export function KeyRefusalNote(props: { apiKey: KeyView; now: number }) {
  const { apiKey } = props;
  const standing = useQuery({
    ...usageQueries.standing(apiKey.namespace),
    refetchInterval: 10_000,
  });
  const members = useQuery({
    ...memberQueries.spend(apiKey.namespace),
    enabled: apiKey.owner !== null,
    refetchInterval: 10_000,
    retry: false,
  });
  if (standing.data === undefined) return null;
  const spent = members.data?.members.find((member) => member.owner === apiKey.owner);
  const limits = members.data?.memberLimits;
  const refusals = refusalsOf({
    subscription: standing.data.subscription,
    hasBalance: standing.data.balanceUSD !== null && Number(standing.data.balanceUSD) > 0,
    member:
      spent === undefined || limits === undefined
        ? null
        : {
            owner: spent.owner,
            spent: [
              ['for today', spent.todayUSD, limits.dailyUSD],
              ['for the week', spent.sevenDaysUSD, limits.weeklyUSD],
              ['for the month', spent.thirtyDaysUSD, limits.monthlyUSD],
            ],
          },
    now: props.now,
  });
  if (refusals.length === 0) return null;
  return (
    <section className="card refusal-note" aria-labelledby="refusal-title">
      <h2 id="refusal-title">Calls are refused</h2>
      <ul>
        {refusals.map((refusal) => (
          <li key={refusal.code}>
            <code>{refusal.code}</code>: {refusal.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
