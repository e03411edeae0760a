/**
 * The lease charge as the Redis scripts keep it in `inflight:charge` (after the account uid the
 * admission script puts in front): day TAB recordTime TAB increments TAB record JSON without its
 * closing brace TAB model. JSON never holds a raw TAB, and the model comes last, so every field
 * splits cleanly. The record's cost is the reservation.
 */
import { LEASE_CHARGE_METRICS } from './lua-shared-functions.js';
import type { LeaseCharge } from './store.js';

export function encodeLeaseCharge(charge: LeaseCharge | undefined, estimateNano: number): string {
  if (charge === undefined) return '';
  const record: Record<string, unknown> = { ...charge.record, costNano: estimateNano };
  delete record.accountUid;
  delete record.durationMs;
  const increments = LEASE_CHARGE_METRICS.map((metric) =>
    metric === 'costNano' ? estimateNano : charge.record.usage[metric],
  );
  const json = JSON.stringify(record);
  return [
    charge.day,
    String(charge.record.time),
    increments.join(','),
    json.slice(0, -1),
    charge.record.model,
  ].join('\t');
}
