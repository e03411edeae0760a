import { describe, expect, it } from 'vitest';
import {
  createTextAccumulator,
  estimateTokensFromBytes,
  estimateTokensFromChars,
} from './accumulate-text.js';
import { checkUsageInvariants, MAX_USAGE_TOKENS } from './check-usage-invariants.js';
import { createBodyUsageAccumulator } from './create-body-usage-accumulator.js';
import { resolveMeteredUsage } from './resolve-metered-usage.js';
import { emptyReport } from '../spec/usage-report.js';
import { emptyUsage } from '../../store/usage-buckets.js';

const reported = {
  inputUncached: 10,
  cacheRead: 5,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  output: 2,
  reasoning: 0,
};

describe('resolveMeteredUsage', () => {
  it('bills reported usage as exact', () => {
    const report = { ...emptyReport(), usage: reported, complete: true, textChars: 400 };
    expect(resolveMeteredUsage({ report, estimatedInputTokens: 99 })).toEqual({
      usage: reported,
      accuracy: 'exact',
      flags: [],
    });
  });

  it('estimates the output of a stream whose final usage never came', () => {
    const report = { ...emptyReport(), usage: reported, provisional: true, textChars: 41 };
    expect(resolveMeteredUsage({ report, estimatedInputTokens: 99 })).toEqual({
      usage: { ...reported, output: 11 },
      accuracy: 'estimated',
      flags: ['output-estimated'],
    });
  });

  it('estimates input and output from request size and text when no usage came', () => {
    const report = { ...emptyReport(), textChars: 8, flags: ['x'] };
    expect(resolveMeteredUsage({ report, estimatedInputTokens: 250 })).toEqual({
      usage: { ...emptyUsage(), inputUncached: 250, output: 2 },
      accuracy: 'estimated',
      flags: ['x', 'usage-estimated'],
    });
  });

  it('bills repaired usage as estimated, never below the request and text estimates', () => {
    const checked = checkUsageInvariants({ ...reported, inputUncached: -4, output: 1e300 });
    const report = { ...emptyReport(), ...checked, complete: true, textChars: 41 };
    expect(resolveMeteredUsage({ report, estimatedInputTokens: 99 })).toEqual({
      usage: { ...reported, inputUncached: 94, output: MAX_USAGE_TOKENS },
      accuracy: 'estimated',
      flags: ['negative-inputUncached', 'clamped-output', 'usage-repaired'],
    });
  });

  it('bills nothing without usage or text', () => {
    expect(resolveMeteredUsage({ report: emptyReport(), estimatedInputTokens: 250 })).toEqual({
      usage: emptyUsage(),
      accuracy: 'none',
      flags: [],
    });
  });
});

describe('checkUsageInvariants', () => {
  it('repairs and flags bad buckets', () => {
    expect(
      checkUsageInvariants({
        inputUncached: -1,
        cacheRead: Number.NaN,
        cacheWrite5m: 1.2,
        cacheWrite1h: Infinity,
        output: 3,
        reasoning: 5,
      }),
    ).toEqual({
      usage: {
        inputUncached: 0,
        cacheRead: 0,
        cacheWrite5m: 2,
        cacheWrite1h: MAX_USAGE_TOKENS,
        output: 3,
        reasoning: 3,
      },
      flags: [
        'negative-inputUncached',
        'invalid-cacheRead',
        'fractional-cacheWrite5m',
        'clamped-cacheWrite1h',
        'reasoning-exceeds-output',
      ],
    });
  });
});

describe('text estimates', () => {
  it('counts string text only and rounds chars / 4 up', () => {
    const text = createTextAccumulator();
    text.add('hello');
    text.add(undefined);
    text.add(42);
    expect(text.chars).toBe(5);
    expect(estimateTokensFromChars(text.chars)).toBe(2);
    expect(estimateTokensFromBytes(8)).toBe(2);
    expect(estimateTokensFromBytes(0)).toBe(0);
  });
});

describe('createBodyUsageAccumulator', () => {
  const extract = (body: unknown) => ({
    ...emptyReport(),
    complete: true,
    model: JSON.stringify(body),
  });

  it('extracts from the fed body, and reports nothing without one', () => {
    const accumulator = createBodyUsageAccumulator(extract);
    expect(accumulator.result()).toEqual(emptyReport());
    accumulator.feed({ a: 1 });
    expect(accumulator.result()).toMatchObject({ complete: true, model: '{"a":1}' });
    accumulator.feed('<html>');
    expect(accumulator.result()).toMatchObject({ usage: null, flags: ['body-not-json'] });
  });
});
