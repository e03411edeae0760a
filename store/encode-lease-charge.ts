/**
 * The lease charge as the Redis scripts keep it in `inflight:charge` (after the account uid the
 * admission script puts in front): recordTime TAB record JSON without its closing brace (the
 * script appends accountUid, durationMs and chargedAt). JSON never holds a raw TAB, so the fields
 * split cleanly. The record's cost is the reservation.
 */
import { leaseChargeJsonPrefix } from './record-json.js';
import type { LeaseCharge } from './store.js';

export function encodeLeaseCharge(charge: LeaseCharge | undefined, estimateNano: number): string {
  if (charge === undefined) return '';
  return `${String(charge.record.time)}\t${leaseChargeJsonPrefix(charge, estimateNano)}`;
}
