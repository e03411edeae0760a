/**
 * Pure: the events a notifier's spec finds in a snapshot, each with its idempotency id. A fact
 * that holds fires on every evaluation with the same id (the store's claim sends it once); a
 * window that reset, a topped-up credit or a new expiry date names a new fact.
 */
import type { ClusterNotifierSpec } from '../../crds/schema/resources.js';
import type { NotificationEventType } from '../../crds/schema/notifier.js';
import { formatNanoAsUSD, parseMoneyToNano } from '../reconcile/parse-money.js';
import { computeEventId } from './compute-event-id.js';
import { percentOf, reachedThresholds } from './evaluate-thresholds.js';
import type { NotificationEvent, NotificationSubject } from './notification-event.js';
import type { NotificationSnapshot, WindowFigures } from './notification-snapshot.js';

const DAY_MS = 86_400_000;

export interface NotifierUnderEvaluation {
  uid: string;
  /** The namespace a Notifier watches; null for a ClusterNotifier (every namespace). */
  namespace: string | null;
  /** A Notifier's spec has no upstream events: the ClusterNotifier's shape covers both. */
  spec: ClusterNotifierSpec;
}

interface Fact {
  type: NotificationEventType;
  subject: NotificationSubject;
  threshold: number;
  period: string;
  figures: Record<string, number | string>;
}

function windowFacts(input: {
  type: NotificationEventType;
  subject: Omit<NotificationSubject, 'window'>;
  windows: readonly WindowFigures[];
  thresholds: readonly number[] | undefined;
}): Fact[] {
  return input.windows.flatMap((window) =>
    reachedThresholds({ ...window, thresholds: input.thresholds }).map((threshold) => ({
      type: input.type,
      subject: { ...input.subject, window: window.name },
      threshold,
      period: window.period,
      figures: {
        thresholdPercent: threshold,
        percent: percentOf(window.usedNano, window.capNano),
        usedUSD: formatNanoAsUSD(window.usedNano),
        capUSD: formatNanoAsUSD(window.capNano),
        ...(window.resetTime === null
          ? {}
          : { resetTime: new Date(window.resetTime).toISOString() }),
      },
    })),
  );
}

function expiryFact(input: {
  type: NotificationEventType;
  subject: NotificationSubject;
  expiresAt: number | null;
  withinDays: number;
  now: number;
}): Fact[] {
  const { expiresAt, now } = input;
  if (expiresAt === null || expiresAt <= now || expiresAt - now > input.withinDays * DAY_MS) {
    return [];
  }
  const expiry = new Date(expiresAt).toISOString();
  return [
    {
      type: input.type,
      subject: input.subject,
      threshold: input.withinDays,
      period: expiry,
      figures: { expiresAt: expiry, daysLeft: Math.floor((expiresAt - now) / DAY_MS) },
    },
  ];
}

function tenantFacts(notifier: NotifierUnderEvaluation, snapshot: NotificationSnapshot): Fact[] {
  const { events } = notifier.spec;
  const inScope = (namespace: string) =>
    notifier.namespace === null || notifier.namespace === namespace;
  const facts: Fact[] = [];
  const keyWindows = events.keyWindows;
  for (const key of snapshot.keys) {
    if (!inScope(key.namespace)) continue;
    if (keyWindows?.keyNames !== undefined && !keyWindows.keyNames.includes(key.name)) continue;
    const subject = { namespace: key.namespace, kind: 'ApiKey' as const, name: key.name };
    if (keyWindows !== undefined) {
      const wanted = keyWindows.windows;
      facts.push(
        ...windowFacts({
          type: 'KeyWindowThreshold',
          subject,
          windows: key.windows.filter(
            (window) => wanted === undefined || (wanted as readonly string[]).includes(window.name),
          ),
          thresholds: keyWindows.thresholds,
        }),
      );
    }
    if (events.keyExpiring !== undefined) {
      facts.push(
        ...expiryFact({
          type: 'KeyExpiring',
          subject,
          expiresAt: key.expirationTime,
          withinDays: events.keyExpiring.withinDays,
          now: snapshot.now,
        }),
      );
    }
  }
  for (const account of snapshot.accounts) {
    if (!inScope(account.namespace)) continue;
    const namespace = account.namespace;
    const subject = { namespace, kind: 'Account' as const, name: 'default' };
    if (events.planWindows !== undefined && account.planName !== null) {
      facts.push(
        ...windowFacts({
          type: 'PlanWindowThreshold',
          subject: { ...subject, name: account.planName },
          windows: account.planWindows,
          thresholds: events.planWindows.thresholds,
        }),
      );
    }
    if (events.memberWindows !== undefined) {
      for (const member of account.members) {
        facts.push(
          ...windowFacts({
            type: 'MemberWindowThreshold',
            subject: { namespace, kind: 'Member', name: member.owner },
            windows: member.windows,
            thresholds: events.memberWindows.thresholds,
          }),
        );
      }
    }
    const balanceBelow = events.balanceBelow;
    if (balanceBelow !== undefined && account.creditNano !== null) {
      const thresholdNano = parseMoneyToNano(balanceBelow.thresholdUSD);
      const balanceNano = account.creditNano - account.spentNano;
      if (balanceNano < thresholdNano) {
        facts.push({
          type: 'BalanceBelow',
          subject,
          threshold: thresholdNano,
          // Each credit amount is a new period: a top-up that falls below again fires again.
          period: `credit:${String(account.creditNano)}`,
          figures: {
            balanceUSD: formatNanoAsUSD(balanceNano),
            thresholdUSD: formatNanoAsUSD(thresholdNano),
            creditUSD: formatNanoAsUSD(account.creditNano),
          },
        });
      }
    }
    if (events.subscriptionExpiring !== undefined && account.planName !== null) {
      facts.push(
        ...expiryFact({
          type: 'SubscriptionExpiring',
          subject: { ...subject, name: account.planName },
          expiresAt: account.subscriptionEnd,
          withinDays: events.subscriptionExpiring.withinDays,
          now: snapshot.now,
        }),
      );
    }
  }
  return facts;
}

function upstreamFacts(notifier: NotifierUnderEvaluation, snapshot: NotificationSnapshot): Fact[] {
  if (notifier.namespace !== null) return [];
  const { events } = notifier.spec;
  const facts: Fact[] = [];
  for (const { name, health } of snapshot.upstreams) {
    const subject = { kind: 'Upstream' as const, name };
    const credentials = events.upstreamCredentialsInvalid;
    if (credentials !== undefined && credentials.enabled !== false) {
      if (health.credentialsFailedAt !== null) {
        const failedAt = new Date(health.credentialsFailedAt).toISOString();
        facts.push({
          type: 'UpstreamCredentialsInvalid',
          subject,
          threshold: 0,
          period: failedAt,
          figures: { failedAt },
        });
      }
    }
    const circuit = events.upstreamCircuitOpen;
    if (circuit !== undefined && circuit.enabled !== false) {
      if (health.state === 'CircuitOpen' && health.until !== null) {
        const until = new Date(health.until).toISOString();
        facts.push({
          type: 'UpstreamCircuitOpen',
          subject,
          threshold: 0,
          period: until,
          figures: { until, failures: health.failures },
        });
      }
    }
  }
  return facts;
}

export function evaluateNotifier(
  notifier: NotifierUnderEvaluation,
  snapshot: NotificationSnapshot,
): NotificationEvent[] {
  if (notifier.spec.suspend === true) return [];
  const occurredAt = new Date(snapshot.now).toISOString();
  return [...tenantFacts(notifier, snapshot), ...upstreamFacts(notifier, snapshot)].map((fact) => ({
    id: computeEventId({ notifierUid: notifier.uid, ...fact }),
    type: fact.type,
    subject: fact.subject,
    occurredAt,
    figures: fact.figures,
  }));
}
