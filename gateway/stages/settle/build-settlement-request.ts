/**
 * The settlement of one request: the usage record and the store call's request, which replaces the
 * reservation by the actual cost exactly once per request id (the store enforces once) and writes
 * the record in the same atomic step. `settleEndedRequest` builds it and hands it to the
 * settlement queue (settle-with-retry.ts), which retries it while the store is unavailable.
 */
import type { Platform } from '../../../crds/schema/resources.js';
import type { SettlementRequest } from '../../../store/store.js';
import type { UsageBuckets } from '../../../store/usage-buckets.js';
import type { UsageRecord } from '../../../store/usage-records.js';
import type { AdmittedRequest } from '../admit/admit-request.js';

export interface SettleOutcome {
  costNano: number;
  usage: UsageBuckets;
  accuracy: UsageRecord['accuracy'];
  status: number;
  stream: boolean;
  upstream: string | null;
  upstreamModel: string | null;
  timeToFirstByteMs: number | null;
  priceVersion: string;
  flags: string[];
  /** Upstream attempts made (failover); 0 when nothing was sent upstream. */
  attempts: number;
}

export interface SettleInput {
  admitted: AdmittedRequest;
  outcome: SettleOutcome;
  now: number;
}

export function buildUsageRecord(input: SettleInput): UsageRecord {
  const { admitted, outcome } = input;
  const platform: Platform = admitted.policy.group.platform;
  const model = admitted.model ?? '';
  return {
    requestId: admitted.requestId,
    time: input.now,
    namespace: admitted.policy.namespace,
    accountUid: admitted.accountUid,
    keyUid: admitted.policy.keyUid,
    keyName: admitted.policy.name,
    group: admitted.policy.group.name,
    upstream: outcome.upstream,
    platform,
    model,
    upstreamModel: outcome.upstreamModel ?? model,
    usage: outcome.usage,
    costNano: outcome.costNano,
    priceVersion: outcome.priceVersion,
    multiplier: admitted.policy.group.multiplierText,
    durationMs: Math.max(0, input.now - admitted.admittedAt),
    timeToFirstByteMs: outcome.timeToFirstByteMs,
    status: outcome.status,
    stream: outcome.stream,
    accuracy: outcome.accuracy,
    flags: outcome.flags,
    attempts: outcome.attempts,
    ...(admitted.policy.owner === undefined ? {} : { owner: admitted.policy.owner }),
  };
}

export function buildSettlementRequest(input: SettleInput): SettlementRequest {
  const { admitted } = input;
  const { budget } = admitted;
  return {
    requestId: admitted.requestId,
    namespace: admitted.policy.namespace,
    keyUid: admitted.policy.keyUid,
    costNano: input.outcome.costNano,
    now: input.now,
    record: buildUsageRecord(input),
    ...(budget === undefined
      ? {}
      : {
          budget: {
            plan: budget.plan,
            owner: budget.owner,
            calendar: budget.calendarEnds(input.now, budget.timeZone),
          },
        }),
  };
}
