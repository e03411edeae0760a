/** Key lookup hash (DESIGN.md 4): HMAC-SHA256 of the key value under the shared pepper, in hex. */
import { createHmac } from 'node:crypto';

export function hashKeyValue(pepper: Buffer, value: string): string {
  return createHmac('sha256', pepper).update(value, 'utf8').digest('hex');
}
