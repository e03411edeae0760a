import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookSignature } from './sign-webhook-body.js';

describe('signWebhookBody', () => {
  const input = { secret: 's3cret', timestamp: 1_800_000_000, body: '{"id":"evt_1"}' };

  it('is v1= and the hex HMAC-SHA256 of timestamp.body', () => {
    const expected = createHmac('sha256', 's3cret')
      .update('1800000000.{"id":"evt_1"}')
      .digest('hex');
    expect(signWebhookBody(input)).toBe(`v1=${expected}`);
  });

  it('verifies its own signature and refuses a changed body, timestamp or secret', () => {
    const signature = signWebhookBody(input);
    expect(verifyWebhookSignature({ ...input, signature })).toBe(true);
    expect(verifyWebhookSignature({ ...input, body: '{"id":"evt_2"}', signature })).toBe(false);
    expect(verifyWebhookSignature({ ...input, timestamp: 1_800_000_001, signature })).toBe(false);
    expect(verifyWebhookSignature({ ...input, secret: 'other', signature })).toBe(false);
    expect(verifyWebhookSignature({ ...input, signature: 'v1=00' })).toBe(false);
  });
});
