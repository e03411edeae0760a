/**
 * What one request is billed (DESIGN.md 5.8, 5.9), a pure function of its metered reply and price:
 * reported usage is `exact`; a reply cut off by the client keeps what the upstream reported and
 * estimates the rest from the streamed text (`estimated`); an upstream failure bills nothing unless
 * the upstream reported usage, except a stream ended for going silent past its idle timeout, which
 * is billed like a cut-off one; no reply (refused, failed before a success status) bills nothing.
 * Cost = computeCost(buckets, price, multiplier), integer nano-USD rounded once. Upstream numbers
 * are untrusted: the buckets are checked once more here (non-negative integers within
 * `MAX_USAGE_TOKENS`, repaired ones billed `estimated`) and the cost is bounded, so billing never
 * throws on what an upstream reported.
 */
import type { RequestPrice } from '../../billing/price-request.js';
import { computeBoundedCost } from '../../billing/compute-cost.js';
import { checkUsageInvariants, hasRepairedUsage } from '../../metering/check-usage-invariants.js';
import { resolveMeteredUsage } from '../../metering/resolve-metered-usage.js';
import { emptyUsage, type UsageBuckets } from '../../../store/usage-buckets.js';
import type { UsageRecord } from '../../../store/usage-records.js';
import type { MeteredReply } from '../reply/relay-metered-reply.js';

export interface Bill {
  usage: UsageBuckets;
  costNano: number;
  accuracy: UsageRecord['accuracy'];
  priceVersion: string;
  flags: string[];
}

export interface BillInput {
  price: RequestPrice | null;
  reply: MeteredReply | null;
  estimatedInputTokens: number;
}

const END_FLAGS = {
  ended: [],
  'client-closed': ['client-closed'],
  'upstream-failed': ['upstream-failed'],
} as const;

export function billMeteredReply(input: BillInput): Bill {
  const { price, reply } = input;
  const priceVersion = price?.version ?? '';
  if (reply === null) {
    return { usage: emptyUsage(), costNano: 0, accuracy: 'none', priceVersion, flags: [] };
  }
  const { report } = reply;
  const flags: string[] = [...END_FLAGS[reply.end]];
  if (reply.overflowed) flags.push('parse-overflow');
  if (reply.idleTimedOut === true) flags.push('stream-idle-timeout');
  if (report.error !== null) flags.push(`upstream-error-${report.error}`);
  const failed = reply.end === 'upstream-failed' || report.error !== null;
  // A stream the gateway ended for going silent is billed for what it delivered, as one the
  // client left: the usage reported so far, else the estimate from the text relayed.
  if (failed && report.usage === null && reply.idleTimedOut !== true) {
    return {
      usage: emptyUsage(),
      costNano: 0,
      accuracy: 'none',
      priceVersion,
      flags: [...report.flags, ...flags],
    };
  }
  const metered = resolveMeteredUsage({
    report,
    estimatedInputTokens: input.estimatedInputTokens,
  });
  const checked = checkUsageInvariants(metered.usage);
  const cost =
    price === null
      ? { costNano: 0, capped: false }
      : computeBoundedCost(checked.usage, price.price, price.multiplier);
  if (cost.capped) flags.push('cost-capped');
  const estimated = hasRepairedUsage(checked.flags) || cost.capped;
  return {
    usage: checked.usage,
    costNano: cost.costNano,
    accuracy: estimated && metered.accuracy === 'exact' ? 'estimated' : metered.accuracy,
    priceVersion,
    flags: [...metered.flags, ...checked.flags, ...flags],
  };
}
