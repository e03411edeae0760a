/**
 * Pure: the HTTP request of one attempt. Webhook: the event JSON with `Tollgate-Event-Id`,
 * `Tollgate-Timestamp` (Unix seconds of this attempt) and `Tollgate-Signature`; Slack: its message.
 */
import type { NotificationEvent } from './notification-event.js';
import { renderSlackBody, renderWebhookBody } from './render-notification-body.js';
import type { NotifierTarget } from './resolve-notifier-target.js';
import type { SendRequest } from './send-notification.js';
import { signWebhookBody } from './sign-webhook-body.js';

export function buildNotificationRequest(input: {
  target: NotifierTarget;
  event: NotificationEvent;
  now: number;
}): SendRequest {
  const { target, event } = input;
  if (target.kind === 'slack') {
    return { url: target.url, headers: {}, body: renderSlackBody(event) };
  }
  const body = renderWebhookBody(event);
  const timestamp = Math.floor(input.now / 1000);
  return {
    url: target.url,
    headers: {
      'user-agent': 'tollgate-notifier',
      'tollgate-event-id': event.id,
      'tollgate-timestamp': String(timestamp),
      'tollgate-signature': signWebhookBody({ secret: target.signingSecret, timestamp, body }),
    },
    body,
  };
}
