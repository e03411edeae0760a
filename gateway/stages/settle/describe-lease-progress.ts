/**
 * What a lease renewal tells the store about a request still streaming (store.ts `LeaseProgress`),
 * so that a gateway that dies mid-stream is charged for what it delivered, not its reservation.
 * Pure.
 *
 * - Delivered: the reply so far billed as a cut reply is (`billMeteredReply` with the client gone:
 *   the usage the upstream reported, the output estimated from the streamed text where the final
 *   count never came). The record carries these buckets, flagged `lease-expired` and
 *   `delivered-usage`.
 * - Charge: what the upstream may still bill on top, decided here. The upstream bills the input in
 *   full once it answered, so an input it has not reported yet counts as the request's input
 *   estimate. Output keeps flowing after the last renewal until the gateway dies, which is within
 *   one renewal period, and the upstream bills it: the output delivered during the last period is
 *   counted once more (the recent rate for one more period). The rest of the reservation is not
 *   charged.
 *
 * A reply that arrived whole (the request finished; its settlement waits for the store, or was
 * handed over to the lease) is charged what it delivered, nothing more.
 *
 * The store bounds the charge (`leaseExpiryCostNano`): never more than the reservation, never less
 * than the delivered cost.
 */
import { computeBoundedCost } from '../../billing/compute-cost.js';
import type { RequestPrice } from '../../billing/price-request.js';
import { MAX_USAGE_TOKENS } from '../../metering/check-usage-invariants.js';
import type { UsageReport } from '../../spec/usage-report.js';
import type { LeaseCharge, LeaseProgress } from '../../../store/store.js';
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import { billMeteredReply } from './bill-metered-reply.js';
import { LEASE_EXPIRED_FLAG } from '../admit/describe-lease-charge.js';
import type { UpstreamAttempts } from '../forward/upstream-attempts.js';

/** A lease-expired record whose buckets are what was delivered (not the reservation's). */
export const DELIVERED_USAGE_FLAG = 'delivered-usage';

export interface LeaseProgressInput {
  /** The charge prepared at admission (the record's fixed fields). */
  charge: LeaseCharge;
  /** The meter's report of what was relayed so far. */
  report: UsageReport;
  price: RequestPrice | null;
  /** Input tokens estimated from the request body. */
  estimatedInputTokens: number;
  /** Output tokens delivered at the previous renewal (0 at the first). */
  previousOutput: number;
  outcome: Pick<UpstreamAttempts, 'upstream' | 'upstreamModel' | 'timeToFirstByteMs'>;
}

function inputTotal(usage: UsageBuckets): number {
  return usage.inputUncached + usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h;
}

/** The delivered buckets plus what the upstream may still bill (see the file's comment). */
function mayStillBill(delivered: UsageBuckets, input: LeaseProgressInput): UsageBuckets {
  const lastPeriod = Math.max(0, delivered.output - input.previousOutput);
  const estimatedInput = Math.min(
    Math.max(Math.ceil(input.estimatedInputTokens), 0),
    MAX_USAGE_TOKENS,
  );
  return {
    ...delivered,
    inputUncached: inputTotal(delivered) === 0 ? estimatedInput : delivered.inputUncached,
    output: Math.min(delivered.output + lastPeriod, MAX_USAGE_TOKENS),
  };
}

export function describeLeaseProgress(input: LeaseProgressInput): LeaseProgress {
  const { charge, price, outcome } = input;
  const bill = billMeteredReply({
    price,
    reply: { report: input.report, end: 'client-closed', bytes: 0, overflowed: false },
    estimatedInputTokens: input.estimatedInputTokens,
  });
  // A reply that came whole (its settlement waits, or was handed over to the lease) is billed
  // nothing more upstream.
  const chargeNano =
    price === null || input.report.complete
      ? bill.costNano
      : computeBoundedCost(mayStillBill(bill.usage, input), price.price, price.multiplier).costNano;
  const flags = [LEASE_EXPIRED_FLAG, DELIVERED_USAGE_FLAG];
  for (const flag of bill.flags) if (flag !== 'client-closed') flags.push(flag);
  return {
    record: {
      ...charge.record,
      upstream: outcome.upstream,
      upstreamModel: input.report.model ?? outcome.upstreamModel ?? charge.record.upstreamModel,
      usage: bill.usage,
      timeToFirstByteMs: outcome.timeToFirstByteMs,
      flags,
    },
    deliveredNano: bill.costNano,
    chargeNano,
  };
}
