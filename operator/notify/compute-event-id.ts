/**
 * The idempotency id of an event: a hash of the notifier's uid, the event type, the subject, the
 * threshold and the period the fact belongs to (a window's reset time, the quota's reset token, the
 * expiry date). The same crossing always yields the same id; a window that reset yields a new one.
 */
import { createHash } from 'node:crypto';
import type { NotificationEventType } from '../../crds/schema/notifier.js';
import { describeSubject, type NotificationSubject } from './notification-event.js';

export interface EventFact {
  notifierUid: string;
  type: NotificationEventType;
  subject: NotificationSubject;
  /** The threshold crossed (percent, or micro-USD for a balance); 0 where none applies. */
  threshold: number;
  /** What makes the fact recur: the window period, the expiry date, the cooldown's start. */
  period: string;
}

export function computeEventId(fact: EventFact): string {
  const text = [
    fact.notifierUid,
    fact.type,
    describeSubject(fact.subject),
    String(fact.threshold),
    fact.period,
  ].join('\n');
  return `evt_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}
