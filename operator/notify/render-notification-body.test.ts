import { describe, expect, it } from 'vitest';
import type { NotificationEvent } from './notification-event.js';
import { renderSlackBody, renderWebhookBody } from './render-notification-body.js';

const event: NotificationEvent = {
  id: 'evt_0123',
  type: 'KeyWindowThreshold',
  subject: { namespace: 'team-a', kind: 'ApiKey', name: 'ci<bot>', window: 'Daily' },
  occurredAt: '2026-11-28T10:00:00.000Z',
  figures: { thresholdPercent: 80, percent: 85, usedUSD: '8.5', capUSD: '10' },
};

describe('notification bodies', () => {
  it('sends the event itself to a webhook', () => {
    expect(JSON.parse(renderWebhookBody(event))).toEqual(event);
  });

  it('sends Slack one line of text and blocks, with mrkdwn characters escaped', () => {
    const body = JSON.parse(renderSlackBody(event)) as {
      text: string;
      blocks: { type: string }[];
    };
    expect(body.text).toBe(
      'Key budget window: team-a/ApiKey/ci&lt;bot&gt;/Daily (thresholdPercent 80, percent 85, usedUSD 8.5, capUSD 10)',
    );
    expect(body.blocks.map((block) => block.type)).toEqual(['section', 'context']);
    expect(JSON.stringify(body.blocks)).toContain('evt_0123');
  });
});
