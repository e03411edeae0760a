/**
 * The usage record a request is charged if its lease ends before it is settled (its gateway died,
 * or lost the store for longer than the lease): prepared at admission and kept with the
 * reservation, so the store can charge it without the gateway. It bills the reservation itself,
 * marked `estimated` and flagged `lease-expired`; the store adds the account uid and the duration.
 * Pure.
 */
import { reservedOutputTokens } from '../../billing/estimate-request-cost.js';
import type { LeaseCharge } from '../../../store/store.js';
import { emptyUsage } from '../../../store/usage-buckets.js';
import type { AuthorizedPolicy } from '../authorize/authorize-request.js';

export const LEASE_EXPIRED_FLAG = 'lease-expired';

export interface LeaseChargeInput {
  requestId: string;
  policy: AuthorizedPolicy;
  model: string;
  /** Admission time: the record's time. */
  now: number;
  stream: boolean;
  /** The price table version (or override / fallback) the reservation was priced with. */
  priceVersion: string;
  /** The input tokens the reservation was computed from. */
  inputTokens: number;
  /** The output cap the reservation was computed from (null = none; 0 for free endpoints). */
  outputCap: number | null;
}

export function describeLeaseCharge(input: LeaseChargeInput): LeaseCharge {
  const { policy } = input;
  return {
    record: {
      requestId: input.requestId,
      time: input.now,
      namespace: policy.namespace,
      keyUid: policy.keyUid,
      keyName: policy.name,
      group: policy.group.name,
      upstream: null,
      platform: policy.group.platform,
      model: input.model,
      upstreamModel: input.model,
      usage: {
        ...emptyUsage(),
        inputUncached: input.inputTokens,
        output: reservedOutputTokens(input.outputCap, policy.group.platform),
      },
      // The store charges the reservation and writes it here.
      costNano: 0,
      priceVersion: input.priceVersion,
      multiplier: policy.group.multiplierText,
      timeToFirstByteMs: null,
      status: 0,
      stream: input.stream,
      accuracy: 'estimated',
      flags: [LEASE_EXPIRED_FLAG],
      ...(policy.owner === undefined ? {} : { owner: policy.owner }),
    },
  };
}
