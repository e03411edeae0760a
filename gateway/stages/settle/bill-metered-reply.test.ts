import { describe, expect, it } from 'vitest';
import { loadShippedPriceTable } from '../../billing/load-price-table.js';
import { priceRequest } from '../../billing/price-request.js';
import { convertGoogleUsageMetadata } from '../../protocols/google/convert-google-usage-metadata.js';
import { convertInclusiveUsage } from '../../protocols/openai-responses/convert-inclusive-usage.js';
import { MAX_USAGE_TOKENS } from '../../metering/check-usage-invariants.js';
import { emptyReport } from '../../spec/usage-report.js';
import { emptyUsage, USAGE_BUCKETS } from '../../../store/usage-buckets.js';
import { billMeteredReply } from './bill-metered-reply.js';
import type { MeteredReply } from '../reply/relay-metered-reply.js';

const group = {
  priceOverrides: {},
  priceFallback: null,
  multiplier: { numerator: 2, denominator: 1 },
};
const price = priceRequest({
  model: 'claude-sonnet-4-5-20250929',
  platform: 'Anthropic',
  group,
  table: loadShippedPriceTable(),
});
const usage = { ...emptyUsage(), inputUncached: 100, output: 10 };
// (100 x 3000 + 10 x 15000) x 2
const cost = 900_000;

function reply(overrides: Partial<MeteredReply['report']>, end: MeteredReply['end']): MeteredReply {
  return { report: { ...emptyReport(), ...overrides }, end, bytes: 1, overflowed: false };
}

describe('billMeteredReply', () => {
  it('bills reported usage exactly, with the multiplier, rounded once', () => {
    const bill = billMeteredReply({
      price,
      reply: reply({ usage, complete: true }, 'ended'),
      estimatedInputTokens: 5,
    });
    expect(bill).toEqual({
      usage,
      costNano: cost,
      accuracy: 'exact',
      priceVersion: loadShippedPriceTable().version,
      flags: [],
    });
  });

  it('estimates from the text when the client went away before any usage', () => {
    const bill = billMeteredReply({
      price,
      reply: reply({ textChars: 40 }, 'client-closed'),
      estimatedInputTokens: 100,
    });
    expect(bill).toMatchObject({ usage, costNano: cost, accuracy: 'estimated' });
    expect(bill.flags).toEqual(['usage-estimated', 'client-closed']);
  });

  it('bills nothing for an upstream failure or error event without usage, and no reply', () => {
    const failed = billMeteredReply({
      price,
      reply: reply({ textChars: 400 }, 'upstream-failed'),
      estimatedInputTokens: 100,
    });
    expect(failed).toMatchObject({ costNano: 0, accuracy: 'none', flags: ['upstream-failed'] });
    const errored = billMeteredReply({
      price,
      reply: reply({ textChars: 400, error: 'overloaded_error' }, 'ended'),
      estimatedInputTokens: 100,
    });
    expect(errored).toMatchObject({ costNano: 0, accuracy: 'none' });
    expect(errored.flags).toEqual(['upstream-error-overloaded_error']);
    expect(billMeteredReply({ price, reply: null, estimatedInputTokens: 9 })).toMatchObject({
      costNano: 0,
      accuracy: 'none',
    });
  });

  it('bills a stream ended for going silent for what it delivered, flagged', () => {
    const bill = billMeteredReply({
      price,
      reply: { ...reply({ textChars: 40 }, 'upstream-failed'), idleTimedOut: true },
      estimatedInputTokens: 100,
    });
    expect(bill).toMatchObject({ usage, costNano: cost, accuracy: 'estimated' });
    expect(bill.flags).toEqual(['usage-estimated', 'upstream-failed', 'stream-idle-timeout']);
  });

  it('bills usage an upstream reported before failing', () => {
    const bill = billMeteredReply({
      price,
      reply: reply({ usage, provisional: true, error: 'overloaded_error' }, 'ended'),
      estimatedInputTokens: 1,
    });
    expect(bill).toMatchObject({ costNano: cost, accuracy: 'estimated' });
  });

  it('bills nothing without a price (free endpoints)', () => {
    const bill = billMeteredReply({
      price: null,
      reply: reply({ usage, complete: true }, 'ended'),
      estimatedInputTokens: 1,
    });
    expect(bill).toMatchObject({ costNano: 0, priceVersion: '' });
  });

  describe('untrusted upstream numbers', () => {
    // claude-sonnet-4-5 x 2: the most any bucket can cost is MAX_USAGE_TOKENS at its price.
    const ceiling = MAX_USAGE_TOKENS * (3000 + 300 + 3750 + 6000 + 15000) * 2;
    const values = [1e300, 1.5, 0.4, -1, Number.NaN, Infinity, -Infinity, 1e20, 2 ** 53 - 1];

    it.each(values)('bills %s in any bucket without throwing, as estimated', (value) => {
      for (const bucket of USAGE_BUCKETS) {
        const bill = billMeteredReply({
          price,
          reply: reply({ usage: { ...usage, [bucket]: value }, complete: true }, 'ended'),
          estimatedInputTokens: 100,
        });
        expect(Number.isSafeInteger(bill.costNano)).toBe(true);
        expect(bill.costNano).toBeGreaterThanOrEqual(0);
        expect(bill.costNano).toBeLessThanOrEqual(ceiling);
        expect(bill.accuracy).toBe('estimated');
        for (const tokens of Object.values(bill.usage)) {
          expect(Number.isSafeInteger(tokens) && tokens >= 0 && tokens <= MAX_USAGE_TOKENS).toBe(
            true,
          );
        }
      }
    });

    it.each(values)('settles %s reported by an OpenAI or Google upstream', (value) => {
      const reports = [
        convertInclusiveUsage({
          input: value,
          cached: 0,
          cacheWrite: 0,
          output: value,
          reasoning: 0,
        }),
        convertGoogleUsageMetadata({ promptTokenCount: value, candidatesTokenCount: value }),
      ];
      for (const converted of reports) {
        const bill = billMeteredReply({
          price,
          reply: reply({ ...converted, complete: true, textChars: 40 }, 'ended'),
          estimatedInputTokens: 100,
        });
        expect(bill.accuracy).toBe('estimated');
        expect(bill.flags).toContain('usage-repaired');
        expect(bill.costNano).toBeLessThanOrEqual(ceiling);
      }
    });

    it('clamps an absurd count to the bound and never bills a repaired report below the estimate', () => {
      const huge = billMeteredReply({
        price,
        reply: reply(
          {
            ...convertInclusiveUsage({
              input: 10,
              cached: 0,
              cacheWrite: 0,
              output: 1e300,
              reasoning: 0,
            }),
            complete: true,
          },
          'ended',
        ),
        estimatedInputTokens: 10,
      });
      expect(huge.usage.output).toBe(MAX_USAGE_TOKENS);
      expect(huge.flags).toEqual(expect.arrayContaining(['clamped-output', 'usage-repaired']));
      // (10 x 3000 + 10,000,000 x 15000) x 2
      expect(huge.costNano).toBe((10 * 3000 + MAX_USAGE_TOKENS * 15000) * 2);
      const negative = billMeteredReply({
        price,
        reply: reply(
          {
            ...convertInclusiveUsage({
              input: -5,
              cached: 0,
              cacheWrite: 0,
              output: 10,
              reasoning: 0,
            }),
            complete: true,
          },
          'ended',
        ),
        estimatedInputTokens: 100,
      });
      expect(negative).toMatchObject({ usage, costNano: cost, accuracy: 'estimated' });
    });

    it('holds a cost beyond 2^53 nano-USD at the bound', () => {
      const costly = priceRequest({
        model: 'anything',
        platform: 'Anthropic',
        group: {
          ...group,
          multiplier: { numerator: 1_000_000, denominator: 1 },
          priceFallback: {
            input: 999_999_999_999,
            output: 999_999_999_999,
            cacheRead: 0,
            cacheWrite5m: 0,
            cacheWrite1h: 0,
          },
        },
        table: loadShippedPriceTable(),
      });
      const bill = billMeteredReply({
        price: costly,
        reply: reply({ usage: { ...usage, output: MAX_USAGE_TOKENS }, complete: true }, 'ended'),
        estimatedInputTokens: 1,
      });
      expect(bill).toMatchObject({ costNano: Number.MAX_SAFE_INTEGER, accuracy: 'estimated' });
      expect(bill.flags).toContain('cost-capped');
    });
  });
});
