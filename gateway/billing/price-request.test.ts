import { describe, expect, it } from 'vitest';
import { loadShippedPriceTable } from './load-price-table.js';
import {
  estimateReservation,
  isTokenCountPath,
  priceByUpstream,
  priceRequest,
} from './price-request.js';

const table = loadShippedPriceTable();
const group = {
  priceOverrides: {},
  priceFallback: null,
  multiplier: { numerator: 1, denominator: 1 },
};

describe('priceRequest', () => {
  it('finds table prices (also dated ids) and names the table version', () => {
    const price = priceRequest({ model: 'gpt-4.1-2025-04-14', platform: 'OpenAI', group, table });
    expect(price).toMatchObject({
      key: 'gpt-4.1',
      source: 'date-stripped',
      version: table.version,
    });
  });

  it('prefers the group override, falls back to the group fallback, else null', () => {
    const custom = { input: 1, output: 2, cacheRead: 0, cacheWrite5m: 1, cacheWrite1h: 1 };
    const overridden = priceRequest({
      model: 'gpt-4.1',
      platform: 'OpenAI',
      group: { ...group, priceOverrides: { 'gpt-4.1': custom } },
      table,
    });
    expect(overridden).toMatchObject({
      source: 'override',
      version: `${table.version}/group-override`,
    });
    const fallback = priceRequest({
      model: 'mystery',
      platform: 'OpenAI',
      group: { ...group, priceFallback: custom },
      table,
    });
    expect(fallback).toMatchObject({ source: 'fallback', key: '*' });
    expect(priceRequest({ model: 'mystery', platform: 'OpenAI', group, table })).toBeNull();
  });
});

describe('the reservation', () => {
  it('reserves body bytes / 4 input and the output cap at the price', () => {
    const price = priceRequest({ model: 'claude-sonnet-4-5', platform: 'Anthropic', group, table });
    expect(price).not.toBeNull();
    const nano = estimateReservation({
      price: price!,
      bodyBytes: 4000,
      outputCap: 500,
      platform: 'Anthropic',
    });
    expect(nano).toBe(1000 * 3000 + 500 * 15000);
  });

  it('reserves the uncapped assumption when the request sets no cap', () => {
    const price = priceRequest({ model: 'gpt-5', platform: 'OpenAI', group, table });
    expect(price).not.toBeNull();
    const nano = estimateReservation({
      price: price!,
      bodyBytes: 400,
      outputCap: null,
      platform: 'OpenAI',
    });
    // gpt-5: input 1250, output 10000 nano-USD per token.
    expect(nano).toBe(100 * 1250 + 128_000 * 10_000);
  });

  it('knows the free token-count endpoints', () => {
    expect(isTokenCountPath('/v1/messages/count_tokens')).toBe(true);
    expect(isTokenCountPath('/v1beta/models/gemini-2.5-pro:countTokens')).toBe(true);
    expect(isTokenCountPath('/v1/messages')).toBe(false);
  });
});

describe('priceByUpstream', () => {
  const azure = { input: 7, output: 70, cacheRead: 1, cacheWrite5m: 0, cacheWrite1h: 0 };
  const admitted = priceRequest({
    model: 'gpt-4.1',
    platform: 'OpenAI',
    group: {
      ...group,
      priceOverrides: { 'gpt-4.1': azure },
      multiplier: { numerator: 3, denominator: 2 },
    },
    table,
  });

  it('prices by the billed model, else by the model sent upstream, keeping the multiplier', () => {
    const byModel = priceByUpstream({
      admitted,
      overrides: { 'gpt-4.1': azure },
      model: 'gpt-4.1',
      upstreamModel: 'my-deployment',
    });
    expect(byModel).toMatchObject({
      key: 'gpt-4.1',
      source: 'override',
      version: `${table.version}/upstream-override`,
      multiplier: { numerator: 3, denominator: 2 },
    });
    expect(
      priceByUpstream({
        admitted,
        overrides: { 'my-deployment': azure },
        model: 'gpt-4.1',
        upstreamModel: 'my-deployment',
      })?.key,
    ).toBe('my-deployment');
  });

  it('leaves the admission price when the upstream has none for the model, and free calls free', () => {
    const overrides = { other: azure };
    expect(
      priceByUpstream({ admitted, overrides, model: 'gpt-4.1', upstreamModel: null }),
    ).toBeNull();
    expect(
      priceByUpstream({
        admitted: null,
        overrides: { 'gpt-4.1': azure },
        model: 'gpt-4.1',
        upstreamModel: null,
      }),
    ).toBeNull();
  });
});
