/**
 * The lease charge as the Redis scripts keep it in `inflight:charge`, under the request id (after
 * the account uid the admission script puts in front): recordTime TAB record JSON without its
 * closing brace (the script appends accountUid, durationMs and chargedAt). The record's cost is the
 * reservation.
 *
 * A renewal's progress goes under `<request id>:progress` in the same hash: deliveredNano TAB
 * chargeNano TAB record JSON without costNano and its closing brace (the script appends the cost
 * it charges). The admission's entry keeps its layout, so gateways of the previous release read
 * it as before during an upgrade. JSON never holds a raw TAB, so the fields split cleanly.
 */
import { leaseChargeJsonPrefix } from './record-json.js';
import type { LeaseCharge, LeaseProgress } from './store.js';

/** The hash field of a request's progress, beside its charge entry. */
export const PROGRESS_FIELD_SUFFIX = ':progress';

export function encodeLeaseCharge(charge: LeaseCharge | undefined, estimateNano: number): string {
  if (charge === undefined) return '';
  return `${String(charge.record.time)}\t${leaseChargeJsonPrefix(charge.record, estimateNano)}`;
}

/** A renewal's progress, as the renewal script stores it. */
export function encodeLeaseProgress(progress: LeaseProgress): string {
  const delivered = integerText(progress.deliveredNano);
  const charge = integerText(progress.chargeNano);
  return `${delivered}\t${charge}\t${leaseChargeJsonPrefix(progress.record, null)}`;
}

/** A non-negative integer as the script's `tonumber` reads it (never 1e+21 or NaN). */
function integerText(value: number): string {
  return Number.isFinite(value) && value > 0 ? String(Math.round(value)) : '0';
}
