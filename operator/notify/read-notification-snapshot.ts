/**
 * Gathers the snapshot the notifiers are evaluated on: caps and dates from the resources in the
 * informer cache, spend from the counters the gateway keeps in the store. Only what some notifier
 * wants is read (no notifier: nothing), one store read per key, account, owner and round.
 */
import type { Account, ApiKey, ClusterNotifierSpec } from '../../crds/schema/resources.js';
import type { OperatorContext } from '../operator-context.js';
import { readResource } from '../read-resource.js';
import { readResourceOrNull } from '../read-typed-resource.js';
import { parseOptionalMoneyToNano } from '../reconcile/parse-money.js';
import type {
  AccountSnapshot,
  KeySnapshot,
  NotificationSnapshot,
  UpstreamSnapshot,
  WindowFigures,
} from './notification-snapshot.js';

export interface SnapshotNeeds {
  /** The namespaces to read; null = every namespace. */
  namespaces: Set<string> | null;
  keys: boolean;
  accounts: boolean;
  members: boolean;
  upstreams: boolean;
}

/** What a set of notifiers needs read. */
export function snapshotNeeds(
  notifiers: readonly { namespace: string | null; spec: ClusterNotifierSpec }[],
): SnapshotNeeds {
  const needs: SnapshotNeeds = {
    namespaces: new Set(),
    keys: false,
    accounts: false,
    members: false,
    upstreams: false,
  };
  for (const { namespace, spec } of notifiers) {
    if (spec.suspend === true) continue;
    const events = spec.events;
    if (namespace === null) needs.namespaces = null;
    else needs.namespaces?.add(namespace);
    needs.keys ||= events.keyWindows !== undefined || events.keyExpiring !== undefined;
    needs.members ||= events.memberWindows !== undefined;
    needs.accounts ||=
      needs.members ||
      events.planWindows !== undefined ||
      events.balanceBelow !== undefined ||
      events.subscriptionExpiring !== undefined;
    needs.upstreams ||=
      events.upstreamCircuitOpen !== undefined || events.upstreamCredentialsInvalid !== undefined;
  }
  return needs;
}

function capped(
  windows: readonly { name: string; usedNano: number; resetTime: number | null }[] | undefined,
  caps: Record<string, number | null>,
): WindowFigures[] {
  return Object.entries(caps)
    .filter((entry): entry is [string, number] => entry[1] !== null && entry[1] > 0)
    .map(([name, capNano]) => {
      const found = windows?.find((window) => window.name === name);
      const resetTime = found?.resetTime ?? null;
      return {
        name,
        usedNano: found?.usedNano ?? 0,
        capNano,
        period: resetTime === null ? 'closed' : String(resetTime),
        resetTime,
      };
    });
}

async function readKey(context: OperatorContext, key: ApiKey, now: number): Promise<KeySnapshot> {
  const namespace = key.metadata.namespace ?? '';
  const limits = key.spec.limits ?? {};
  const caps = {
    FiveHour: parseOptionalMoneyToNano(limits.fiveHourUSD),
    Daily: parseOptionalMoneyToNano(limits.dailyUSD),
    SevenDay: parseOptionalMoneyToNano(limits.sevenDayUSD),
  };
  const quotaNano = parseOptionalMoneyToNano(limits.quotaUSD);
  const expiration = key.spec.expirationTime;
  const base = {
    namespace,
    name: key.metadata.name,
    expirationTime: expiration === undefined ? null : Date.parse(expiration),
  };
  const hasCap = Object.values(caps).some((cap) => cap !== null && cap > 0);
  if (!hasCap && !(quotaNano !== null && quotaNano > 0)) return { ...base, windows: [] };
  const counters = await context.store.keyCounters(namespace, key.metadata.uid, now);
  const windows = capped(counters.windows, caps);
  if (quotaNano !== null && quotaNano > 0) {
    windows.push({
      name: 'Quota',
      usedNano: counters.usedNano,
      capNano: quotaNano,
      period: counters.lastQuotaResetToken ?? 'initial',
      resetTime: null,
    });
  }
  return { ...base, windows };
}

async function readAccount(
  context: OperatorContext,
  input: { account: Account; members: boolean; now: number },
): Promise<AccountSnapshot> {
  const { account, now } = input;
  const namespace = account.metadata.namespace ?? '';
  const counters = await context.store.accountCounters(namespace);
  const subscription = account.spec.subscription;
  const plan =
    subscription === undefined
      ? null
      : readResourceOrNull(context, 'Plan', { name: subscription.planName });
  const planLimits = plan?.spec.limits ?? {};
  const planWindows = capped(counters.planWindows, {
    FiveHour: parseOptionalMoneyToNano(planLimits.fiveHourUSD),
    Daily: parseOptionalMoneyToNano(planLimits.dailyUSD),
    Weekly: parseOptionalMoneyToNano(planLimits.weeklyUSD),
    Monthly: parseOptionalMoneyToNano(planLimits.monthlyUSD),
  });
  const memberLimits = account.spec.memberLimits ?? {};
  const memberCaps = {
    Daily: parseOptionalMoneyToNano(memberLimits.dailyUSD),
    Weekly: parseOptionalMoneyToNano(memberLimits.weeklyUSD),
    Monthly: parseOptionalMoneyToNano(memberLimits.monthlyUSD),
  };
  const members: AccountSnapshot['members'] = [];
  if (input.members && Object.values(memberCaps).some((cap) => cap !== null && cap > 0)) {
    const owners = new Set<string>();
    for (const object of context.cache.list('ApiKey', namespace)) {
      const read = readResource('ApiKey', object);
      if (read.ok && read.resource.spec.owner !== undefined) owners.add(read.resource.spec.owner);
    }
    for (const owner of owners) {
      const member = await context.store.memberCounters(namespace, owner, now);
      members.push({ owner, windows: capped(member.windows, memberCaps) });
    }
  }
  return {
    namespace,
    creditNano: parseOptionalMoneyToNano(account.spec.creditUSD),
    spentNano: counters.spentNano,
    subscriptionEnd: subscription?.endTime === undefined ? null : Date.parse(subscription.endTime),
    planName: plan === null ? null : plan.metadata.name,
    planWindows,
    members,
  };
}

export async function readNotificationSnapshot(
  context: OperatorContext,
  needs: SnapshotNeeds,
): Promise<NotificationSnapshot> {
  const now = context.now();
  const inScope = (namespace: string | undefined) =>
    needs.namespaces === null || needs.namespaces.has(namespace ?? '');
  const keys: KeySnapshot[] = [];
  if (needs.keys) {
    for (const object of context.cache.list('ApiKey')) {
      if (!inScope(object.metadata.namespace)) continue;
      const read = readResource('ApiKey', object);
      if (read.ok) keys.push(await readKey(context, read.resource, now));
    }
  }
  const accounts: AccountSnapshot[] = [];
  if (needs.accounts) {
    for (const object of context.cache.list('Account')) {
      if (object.metadata.name !== 'default' || !inScope(object.metadata.namespace)) continue;
      const read = readResource('Account', object);
      if (!read.ok) continue;
      accounts.push(
        await readAccount(context, { account: read.resource, members: needs.members, now }),
      );
    }
  }
  const upstreams: UpstreamSnapshot[] = [];
  if (needs.upstreams) {
    const names = context.cache.list('Upstream').map((object) => object.metadata.name);
    if (names.length > 0) {
      const health = await context.store.upstreamHealth(names, now);
      for (const [name, found] of health) upstreams.push({ name, health: found });
    }
  }
  return { now, keys, accounts, upstreams };
}
