/**
 * Pure: the bodies sent for an event. The webhook gets the event as JSON
 * (`{id, type, occurredAt, subject, figures}`); Slack gets `{text, blocks}` with one line of text.
 */
import type { NotificationEventType } from '../../crds/schema/notifier.js';
import { describeSubject, type NotificationEvent } from './notification-event.js';

const TITLES: Record<NotificationEventType, string> = {
  KeyWindowThreshold: 'Key budget window',
  MemberWindowThreshold: 'Member budget window',
  PlanWindowThreshold: 'Plan window',
  BalanceBelow: 'Account balance low',
  KeyExpiring: 'API key expiring',
  SubscriptionExpiring: 'Subscription expiring',
  UpstreamCredentialsInvalid: 'Upstream credentials invalid',
  UpstreamCircuitOpen: 'Upstream circuit open',
};

export function renderWebhookBody(event: NotificationEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    occurredAt: event.occurredAt,
    subject: event.subject,
    figures: event.figures,
  });
}

/** One sentence: what happened to what, with the figures. */
export function summarizeEvent(event: NotificationEvent): string {
  const figures = Object.entries(event.figures)
    .map(([name, value]) => `${name} ${String(value)}`)
    .join(', ');
  return `${TITLES[event.type]}: ${describeSubject(event.subject)}${figures === '' ? '' : ` (${figures})`}`;
}

/** Escapes the three characters Slack's mrkdwn treats as control characters. */
function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function renderSlackBody(event: NotificationEvent): string {
  const text = escapeSlack(summarizeEvent(event));
  return JSON.stringify({
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${TITLES[event.type]}*\n${text}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `event ${event.id}` }] },
    ],
  });
}
