/**
 * The webhook signature: `v1=` + hex HMAC-SHA256(secret, `${timestamp}.${body}`), sent in
 * `Tollgate-Signature` with the timestamp (Unix seconds) in `Tollgate-Timestamp`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signWebhookBody(input: {
  secret: string;
  timestamp: number;
  body: string;
}): string {
  const mac = createHmac('sha256', input.secret);
  mac.update(`${String(input.timestamp)}.${input.body}`);
  return `v1=${mac.digest('hex')}`;
}

/** What a receiver does (docs/notifications.md shows the same steps). */
export function verifyWebhookSignature(input: {
  secret: string;
  timestamp: number;
  body: string;
  signature: string;
}): boolean {
  const expected = Buffer.from(signWebhookBody(input));
  const given = Buffer.from(input.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
