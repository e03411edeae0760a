/**
 * Pure: the notifier form's fields and the spec they stand for, both ways. Thresholds are written
 * as "80, 100"; an empty day count or USD amount leaves that event out.
 */
import { listOf, recordOf, textOf } from '../admin/spec-values.js';

export interface NotifierForm {
  name: string;
  target: 'webhook' | 'slack';
  url: string;
  /** Write-only: the signing secret or the Slack URL; empty on an edit keeps the Secret. */
  secretValue: string;
  keyWindows: boolean;
  thresholds: string;
  memberWindows: boolean;
  planWindows: boolean;
  balanceBelowUSD: string;
  keyExpiringDays: string;
  subscriptionExpiringDays: string;
  upstreamCredentialsInvalid: boolean;
  upstreamCircuitOpen: boolean;
}

export const EMPTY_NOTIFIER_FORM: NotifierForm = {
  name: '',
  target: 'webhook',
  url: '',
  secretValue: '',
  keyWindows: true,
  thresholds: '80, 100',
  memberWindows: false,
  planWindows: false,
  balanceBelowUSD: '',
  keyExpiringDays: '7',
  subscriptionExpiringDays: '',
  upstreamCredentialsInvalid: false,
  upstreamCircuitOpen: false,
};

/** "80, 100" -> [80, 100]; null when a part is not a whole number from 1 to 1000. */
export function parseThresholds(text: string): number[] | null {
  const parts = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0 || parts.length > 10) return null;
  const numbers = parts.map(Number);
  return numbers.every((value) => Number.isInteger(value) && value >= 1 && value <= 1000)
    ? [...new Set(numbers)]
    : null;
}

function days(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text.trim());
}

/** The spec a form stands for (the server checks it and answers a refusal with its field). */
export function specOf(form: NotifierForm, cluster: boolean): Record<string, unknown> {
  const thresholds = parseThresholds(form.thresholds) ?? undefined;
  const events: Record<string, unknown> = {};
  if (form.keyWindows) events.keyWindows = thresholds === undefined ? {} : { thresholds };
  if (form.memberWindows) events.memberWindows = thresholds === undefined ? {} : { thresholds };
  if (form.planWindows) events.planWindows = thresholds === undefined ? {} : { thresholds };
  if (form.balanceBelowUSD.trim() !== '') {
    events.balanceBelow = { thresholdUSD: form.balanceBelowUSD.trim() };
  }
  const keyDays = days(form.keyExpiringDays);
  if (keyDays !== undefined) events.keyExpiring = { withinDays: keyDays };
  const subscriptionDays = days(form.subscriptionExpiringDays);
  if (subscriptionDays !== undefined)
    events.subscriptionExpiring = { withinDays: subscriptionDays };
  if (cluster && form.upstreamCredentialsInvalid) events.upstreamCredentialsInvalid = {};
  if (cluster && form.upstreamCircuitOpen) events.upstreamCircuitOpen = {};
  return form.target === 'slack'
    ? { slack: {}, events }
    : { webhook: { url: form.url.trim() }, events };
}

/** The spec of an edit that sends no new Secret value: the Secret reference read is kept. */
export function specKeepingSecret(
  form: NotifierForm,
  input: { cluster: boolean; current: Record<string, unknown> },
): Record<string, unknown> {
  const spec = specOf(form, input.cluster);
  const webhook = recordOf(input.current.webhook);
  const slack = recordOf(input.current.slack);
  if (form.target === 'webhook' && webhook.signingSecretRef !== undefined) {
    spec.webhook = { ...recordOf(spec.webhook), signingSecretRef: webhook.signingSecretRef };
  }
  if (form.target === 'slack' && slack.webhookURLSecretRef !== undefined) {
    spec.slack = { webhookURLSecretRef: slack.webhookURLSecretRef };
  }
  return spec;
}

/** The form filled from a notifier read (the Secret value is never read back). */
export function formOf(name: string, spec: Record<string, unknown>): NotifierForm {
  const events = recordOf(spec.events);
  const windowEvent = [events.keyWindows, events.memberWindows, events.planWindows].find(
    (event) => event !== undefined,
  );
  const thresholds = listOf(recordOf(windowEvent).thresholds).map(String);
  return {
    name,
    target: spec.slack === undefined ? 'webhook' : 'slack',
    url: textOf(recordOf(spec.webhook).url),
    secretValue: '',
    keyWindows: events.keyWindows !== undefined,
    thresholds: thresholds.length === 0 ? '80, 100' : thresholds.join(', '),
    memberWindows: events.memberWindows !== undefined,
    planWindows: events.planWindows !== undefined,
    balanceBelowUSD: textOf(recordOf(events.balanceBelow).thresholdUSD),
    keyExpiringDays: textOf(recordOf(events.keyExpiring).withinDays),
    subscriptionExpiringDays: textOf(recordOf(events.subscriptionExpiring).withinDays),
    upstreamCredentialsInvalid: events.upstreamCredentialsInvalid !== undefined,
    upstreamCircuitOpen: events.upstreamCircuitOpen !== undefined,
  };
}
