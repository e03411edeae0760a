/**
 * The lease charge as the Redis scripts keep it in `inflight:charge`: accountUid TAB recordTime
 * TAB deliveredNano TAB chargeNano TAB record JSON prefix (`leaseChargeJsonPrefix`: without
 * costNano, accountUid, durationMs and the closing brace, which the script appends when it charges
 * the lease). The admission script puts the account uid in front of what `encodeLeaseCharge`
 * gives, with deliveredNano and chargeNano empty: no progress yet, the reservation is charged. A
 * renewal's `encodeLeaseProgress` replaces the last three fields. JSON never holds a raw TAB, so
 * the fields split cleanly.
 */
import { leaseChargeJsonPrefix } from './record-json.js';
import type { LeaseCharge, LeaseProgress } from './store.js';

/** The admission's charge entry (without the account uid): '' for none. */
export function encodeLeaseCharge(charge: LeaseCharge | undefined): string {
  if (charge === undefined) return '';
  return `${String(charge.record.time)}\t\t\t${leaseChargeJsonPrefix(charge.record)}`;
}

/** A renewal's progress: the charge entry's last three fields. */
export function encodeLeaseProgress(progress: LeaseProgress): string {
  const delivered = integerText(progress.deliveredNano);
  const charge = integerText(progress.chargeNano);
  return `${delivered}\t${charge}\t${leaseChargeJsonPrefix(progress.record)}`;
}

/** A non-negative integer as the script's `tonumber` reads it (never 1e+21 or NaN). */
function integerText(value: number): string {
  return Number.isFinite(value) && value > 0 ? String(Math.round(value)) : '0';
}
