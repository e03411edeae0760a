/**
 * Usage summaries for the console and key status, read from the store's daily aggregates and
 * counters: for a key, today, the last 30 days, the daily breakdown and the quota used; for an
 * account, the daily trend and the model distribution. Days are calendar days in the deployment's
 * time zone, the same ones settlement writes.
 */
import { dayOf } from '../pipeline/settle-request.js';
import type { SpendStore } from '../../store/store.js';
import type { DailyAggregate, UsageBuckets, UsageQueries } from '../../store/usage-records.js';
import { emptyBuckets } from './usage-report.js';

export interface UsageTotal {
  requests: number;
  costNano: number;
  usage: UsageBuckets;
}

export interface DailyUsage extends UsageTotal {
  day: string;
}

export interface ModelUsage extends UsageTotal {
  model: string;
}

export interface KeyUsageSummary {
  today: UsageTotal;
  last30Days: UsageTotal;
  /** Every day of the window, oldest first, zero for days without requests. */
  daily: DailyUsage[];
  quota: {
    usedNano: number;
    reservedNano: number;
    quotaNano: number;
    remainingNano: number | null;
  };
}

export interface AccountUsageSummary {
  total: UsageTotal;
  trend: DailyUsage[];
  /** Models by cost, highest first. */
  models: ModelUsage[];
  spentNano: number;
}

const WINDOW_DAYS = 30;

/** The `days` calendar days ending today in `timeZone`, oldest first. */
export function calendarDays(options: { now: number; timeZone: string; days: number }): string[] {
  const [year, month, day] = dayOf(options.now, options.timeZone).split('-').map(Number);
  const days: string[] = [];
  for (let back = options.days - 1; back >= 0; back -= 1) {
    const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) - back));
    days.push(date.toISOString().slice(0, 10));
  }
  return days;
}

function emptyTotal(): UsageTotal {
  return { requests: 0, costNano: 0, usage: emptyBuckets() };
}

function add(total: UsageTotal, aggregate: DailyAggregate): void {
  total.requests += aggregate.requests;
  total.costNano += aggregate.costNano;
  for (const bucket of Object.keys(total.usage) as (keyof UsageBuckets)[]) {
    total.usage[bucket] += aggregate.usage[bucket];
  }
}

function byDay(days: readonly string[], aggregates: readonly DailyAggregate[]): DailyUsage[] {
  const totals = new Map(days.map((day) => [day, { day, ...emptyTotal() }]));
  for (const aggregate of aggregates) {
    const total = totals.get(aggregate.day);
    if (total !== undefined) add(total, aggregate);
  }
  return [...totals.values()];
}

function sum(totals: readonly UsageTotal[]): UsageTotal {
  const result = emptyTotal();
  for (const total of totals) add(result, { ...total, day: '', model: '', durationMs: 0 });
  return result;
}

export async function readKeyUsage(
  store: Pick<UsageQueries, 'keyDaily'> & Pick<SpendStore, 'keyCounters'>,
  options: { namespace: string; keyUid: string; quotaNano: number; now: number; timeZone: string },
): Promise<KeyUsageSummary> {
  const days = calendarDays({ now: options.now, timeZone: options.timeZone, days: WINDOW_DAYS });
  const first = days[0] ?? '';
  const today = days.at(-1) ?? '';
  const [aggregates, counters] = await Promise.all([
    store.keyDaily(options.namespace, options.keyUid, first, today),
    store.keyCounters(options.namespace, options.keyUid, options.now),
  ]);
  const daily = byDay(days, aggregates);
  const { quotaNano } = options;
  return {
    today: daily.at(-1) ?? emptyTotal(),
    last30Days: sum(daily),
    daily,
    quota: {
      usedNano: counters.usedNano,
      reservedNano: counters.reservedNano,
      quotaNano,
      remainingNano: quotaNano > 0 ? Math.max(0, quotaNano - counters.usedNano) : null,
    },
  };
}

export async function readAccountUsage(
  store: Pick<UsageQueries, 'accountDaily'> & Pick<SpendStore, 'accountCounters'>,
  options: { namespace: string; now: number; timeZone: string; days?: number },
): Promise<AccountUsageSummary> {
  const days = calendarDays({ ...options, days: options.days ?? WINDOW_DAYS });
  const [aggregates, counters] = await Promise.all([
    store.accountDaily(options.namespace, days[0] ?? '', days.at(-1) ?? ''),
    store.accountCounters(options.namespace),
  ]);
  const trend = byDay(days, aggregates);
  const models = new Map<string, ModelUsage>();
  for (const aggregate of aggregates) {
    let model = models.get(aggregate.model);
    if (model === undefined) {
      model = { model: aggregate.model, ...emptyTotal() };
      models.set(aggregate.model, model);
    }
    add(model, aggregate);
  }
  return {
    total: sum(trend),
    trend,
    models: [...models.values()].sort((a, b) => b.costNano - a.costNano),
    spentNano: counters.spentNano,
  };
}
