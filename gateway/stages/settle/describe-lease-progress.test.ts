import { describe, expect, it } from 'vitest';
import { computeCost } from '../../billing/compute-cost.js';
import { loadShippedPriceTable } from '../../billing/load-price-table.js';
import { priceRequest } from '../../billing/price-request.js';
import { emptyReport, type UsageReport } from '../../spec/usage-report.js';
import type { LeaseCharge } from '../../../store/store.js';
import { emptyUsage, type UsageBuckets } from '../../../store/usage-buckets.js';
import { describeLeaseProgress, type LeaseProgressInput } from './describe-lease-progress.js';

const price = priceRequest({
  model: 'claude-sonnet-4-6',
  platform: 'Anthropic',
  group: { priceOverrides: {}, priceFallback: null, multiplier: { numerator: 1, denominator: 1 } },
  table: loadShippedPriceTable(),
});

const charge: LeaseCharge = {
  record: {
    requestId: 'req-1',
    time: 1_000,
    namespace: 'team-a',
    keyUid: 'key-1',
    keyName: 'k',
    group: 'g',
    upstream: null,
    platform: 'Anthropic',
    model: 'claude-sonnet-4-6',
    upstreamModel: 'claude-sonnet-4-6',
    usage: { ...emptyUsage(), inputUncached: 100, output: 2_000 },
    costNano: 0,
    priceVersion: 'v1',
    multiplier: '1',
    timeToFirstByteMs: null,
    status: 0,
    stream: true,
    accuracy: 'estimated',
    flags: ['lease-expired'],
  },
};

function input(report: Partial<UsageReport>, previousOutput = 0): LeaseProgressInput {
  return {
    charge,
    report: { ...emptyReport(), ...report },
    price,
    estimatedInputTokens: 100,
    previousOutput,
    outcome: { upstream: 'up-1', upstreamModel: 'claude-sonnet-4-6', timeToFirstByteMs: 40 },
  };
}

const costOf = (usage: UsageBuckets) => computeCost(usage, price!.price, price!.multiplier);

describe('describeLeaseProgress', () => {
  it('carries the delivered buckets and adds the last period output to the charge', () => {
    // The upstream reported its input (and a provisional output); 400 chars of text = 100 tokens.
    const reported = { ...emptyUsage(), inputUncached: 90, output: 1 };
    const progress = describeLeaseProgress(
      input({ usage: reported, provisional: true, textChars: 400 }, 60),
    );
    const delivered = { ...reported, output: 100 };
    expect(progress.record.usage).toEqual(delivered);
    expect(progress.deliveredNano).toBe(costOf(delivered));
    // 40 tokens came during the last period: counted once more.
    expect(progress.chargeNano).toBe(costOf({ ...delivered, output: 140 }));
    expect(progress.record).toMatchObject({
      upstream: 'up-1',
      timeToFirstByteMs: 40,
      accuracy: 'estimated',
      status: 0,
    });
    expect(progress.record.flags).toEqual(['lease-expired', 'delivered-usage', 'output-estimated']);
  });

  it('charges the input in full once the upstream answered, before anything was delivered', () => {
    const progress = describeLeaseProgress(input({}));
    expect(progress.record.usage).toEqual(emptyUsage());
    expect(progress.deliveredNano).toBe(0);
    expect(progress.chargeNano).toBe(costOf({ ...emptyUsage(), inputUncached: 100 }));
    expect(progress.chargeNano).toBeGreaterThan(0);
  });

  it('charges a reply that came whole what it delivered, nothing more', () => {
    const usage = { ...emptyUsage(), inputUncached: 90, output: 30 };
    const progress = describeLeaseProgress(input({ usage, complete: true, textChars: 120 }));
    expect(progress.record.usage).toEqual(usage);
    expect(progress.chargeNano).toBe(progress.deliveredNano);
    expect(progress.deliveredNano).toBe(costOf(usage));
  });

  it('charges nothing on a free endpoint', () => {
    const progress = describeLeaseProgress({ ...input({ textChars: 400 }), price: null });
    expect([progress.deliveredNano, progress.chargeNano]).toEqual([0, 0]);
  });
});
