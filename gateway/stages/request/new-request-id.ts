/**
 * A request's id: `req_` and 32 hex digits of 128 random bits (the form it always had). The random
 * bytes come from a pooled buffer filled 256 ids at a time (as `randomUUID` pools its own), read
 * out as hex in one step: no UUID text made and then stripped of its dashes per request.
 */
import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
const POOLED_IDS = 256;
const pool = Buffer.alloc(ID_BYTES * POOLED_IDS);
let next = POOLED_IDS;

export function newRequestId(): string {
  if (next === POOLED_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next * ID_BYTES;
  next += 1;
  return `req_${pool.toString('hex', start, start + ID_BYTES)}`;
}
