/** A notification event: one fact about one subject, with the id that names it across replicas. */
import type { NotificationEventType } from '../../crds/schema/notifier.js';

export interface NotificationSubject {
  /** The subject's namespace; absent for cluster-scoped subjects (Upstreams). */
  namespace?: string;
  kind: 'ApiKey' | 'Member' | 'Account' | 'Upstream';
  name: string;
  /** The window (key, member and plan window events). */
  window?: string;
}

export interface NotificationEvent {
  /** Stable for the same fact (computeEventId): the idempotency id receivers deduplicate on. */
  id: string;
  type: NotificationEventType;
  subject: NotificationSubject;
  /** When the evaluation first saw the fact (RFC 3339). */
  occurredAt: string;
  /** The numbers behind the fact: percent, thresholds, USD figures, dates. */
  figures: Record<string, number | string>;
}

/** `namespace/kind/name[/window]`: the subject as one line (status, Slack text). */
export function describeSubject(subject: NotificationSubject): string {
  const parts = [subject.namespace ?? '', subject.kind, subject.name];
  if (subject.window !== undefined) parts.push(subject.window);
  return parts.join('/');
}
