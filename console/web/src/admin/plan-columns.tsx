/**
 * The Plans list's columns: the four caps, price per period, models, concurrency, the accounts
 * subscribed (their namespaces from the Accounts list, else the operator's count) and readiness.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AdminObject } from '../api/admin-api.js';
import { UsdAmount } from '../format/usd-amount.js';
import type { Column } from './admin-list.js';
import { adminQueries } from './admin-queries.js';
import { listOf, recordOf, textOf } from './spec-values.js';

/** Pure: "7 days", "1 day", "" when absent. */
export function periodText(days: unknown): string {
  const text = textOf(days);
  if (text === '') return '';
  return text === '1' ? '1 day' : `${text} days`;
}

function cap(value: unknown): ReactNode {
  return textOf(value) === '' ? 'no cap' : <UsdAmount value={textOf(value)} />;
}

function Caps(props: { item: AdminObject }) {
  const limits = recordOf(props.item.spec.limits);
  const rows: [string, unknown][] = [
    ['5 h', limits.fiveHourUSD],
    ['Day', limits.dailyUSD],
    ['Week', limits.weeklyUSD],
    ['Month', limits.monthlyUSD],
  ];
  return (
    <dl className="plan-caps">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{cap(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function SubscribedAccounts(props: { item: AdminObject }) {
  const accounts = useQuery(adminQueries.list('accounts'));
  const count = textOf(props.item.status?.subscribedAccounts);
  if (accounts.data === undefined) return <>{count === '' ? '—' : count}</>;
  const names = accounts.data.items
    .filter((account) => textOf(recordOf(account.spec.subscription).planName) === props.item.name)
    .map((account) => account.namespace ?? account.name);
  return <>{names.length === 0 ? 'none' : names.join(', ')}</>;
}

function condition(item: AdminObject): string {
  const ready = listOf(item.status?.conditions)
    .map(recordOf)
    .find((entry) => entry.type === 'Ready');
  if (ready === undefined) return 'pending';
  return ready.status === 'True' ? 'ready' : textOf(ready.reason) || 'not ready';
}

export const PLAN_COLUMNS: Column[] = [
  { label: 'Name', render: (item) => item.name },
  { label: 'Display name', render: (item) => textOf(item.spec.displayName) || '—' },
  { label: 'Caps', render: (item) => <Caps item={item} /> },
  {
    label: 'Price',
    render: (item) => {
      const price = textOf(item.spec.priceUSD);
      const period = periodText(item.spec.periodDays);
      if (price === '') return period === '' ? '—' : `per ${period}`;
      return (
        <>
          <UsdAmount value={price} />
          {period === '' ? '' : ` per ${period}`}
        </>
      );
    },
  },
  {
    label: 'Models',
    render: (item) => listOf(recordOf(item.spec.models).allow).map(textOf).join(', ') || 'all',
  },
  {
    label: 'Concurrency',
    render: (item) =>
      textOf(item.spec.maxConcurrentRequests) === '' ||
      textOf(item.spec.maxConcurrentRequests) === '0'
        ? 'unlimited'
        : textOf(item.spec.maxConcurrentRequests),
  },
  { label: 'Accounts', render: (item) => <SubscribedAccounts item={item} /> },
  { label: 'Ready', render: (item) => condition(item) },
];
