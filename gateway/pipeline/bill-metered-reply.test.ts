import { describe, expect, it } from 'vitest';
import { loadShippedPriceTable } from '../billing/load-price-table.js';
import { priceRequest } from '../billing/price-request.js';
import { emptyBuckets, emptyReport } from '../metering/usage-report.js';
import { billMeteredReply } from './bill-metered-reply.js';
import type { MeteredReply } from './request-metering.js';

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
const usage = { ...emptyBuckets(), inputUncached: 100, output: 10 };
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
});
