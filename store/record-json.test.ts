import { describe, expect, it } from 'vitest';
import { encodeLeaseCharge, encodeLeaseProgress } from './encode-lease-charge.js';
import { leaseChargeJsonPrefix, settledRecordJson } from './record-json.js';
import type { LeaseCharge } from './store.js';
import type { UsageRecord } from './usage-records.js';

function record(overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    requestId: 'req_a6cd99915c4b4282a182e4e8e053a86e',
    time: 1_795_526_356_609,
    namespace: 'team-a',
    accountUid: 'acct-1',
    keyUid: 'a3327563-ab0a-4140-91d2-14e8965f5e8e',
    keyName: 'key-a',
    group: 'openai',
    upstream: 'openai-main',
    platform: 'OpenAI',
    model: 'gpt-4o-mini',
    upstreamModel: 'gpt-4o-mini-2024-07-18',
    usage: {
      inputUncached: 12,
      cacheRead: 3,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      output: 20,
      reasoning: 4,
    },
    costNano: 13_800,
    priceVersion: '2026-11-01',
    multiplier: '1.5',
    durationMs: 812,
    timeToFirstByteMs: 120,
    status: 200,
    stream: false,
    accuracy: 'exact',
    flags: [],
    attempts: 1,
    ...overrides,
  };
}

/** Record changes (`no attempts` leaves `attempts` out: records written before failover). */
const VARIANTS: Record<string, Partial<UsageRecord>> = {
  'no attempts': {},
  plain: {},
  'null upstream and first byte': { upstream: null, timeToFirstByteMs: null },
  flags: { flags: ['lease-expired', 'output-over-cap'] },
  'strings to escape': {
    keyName: 'quote " backslash \\ tab \t newline \n nul \u0000',
    model: 'ünïcødé 模型 😀 lone \ud800 surrogate',
    flags: ['a"b', '\u2028', '\u001f', '\u007f / \u00a0', '\udc00 lone low'],
    priceVersion: 'pair \ud83d\ude00 and \u2029',
  },
  'negative, fractional and huge numbers': {
    costNano: -5,
    durationMs: 0.5,
    time: Number.MAX_SAFE_INTEGER,
  },
  'non-finite numbers': { costNano: Number.NaN, status: Number.POSITIVE_INFINITY },
  streamed: { stream: true, accuracy: 'estimated' },
};

describe('settledRecordJson', () => {
  for (const [name, overrides] of Object.entries(VARIANTS)) {
    it(`writes what JSON.stringify writes: ${name}`, () => {
      const value = record(overrides);
      if (name === 'no attempts') delete value.attempts;
      expect(settledRecordJson(value, 1_795_526_357_421)).toBe(
        JSON.stringify({ ...value, chargedAt: 1_795_526_357_421 }),
      );
    });
  }

  it('writes a record with other property types by JSON.stringify', () => {
    const odd = { ...record(), keyName: undefined, extra: 1 } as unknown as UsageRecord;
    expect(settledRecordJson(odd, 5)).toBe(JSON.stringify({ ...odd, chargedAt: 5 }));
    const text = {
      ...record(),
      usage: { ...record().usage, output: '20' },
    } as unknown as UsageRecord;
    expect(settledRecordJson(text, 5)).toBe(JSON.stringify({ ...text, chargedAt: 5 }));
  });
});

describe('encodeLeaseCharge', () => {
  function charge(overrides: Partial<UsageRecord> = {}): LeaseCharge {
    const fields: Partial<UsageRecord> = record(overrides);
    delete fields.accountUid;
    delete fields.durationMs;
    return { record: fields as LeaseCharge['record'] };
  }

  /** The encoding before the template: a copy without two fields, stringified. */
  function copied(lease: LeaseCharge, estimateNano: number): string {
    const fields: Record<string, unknown> = { ...lease.record, costNano: estimateNano };
    delete fields.accountUid;
    delete fields.durationMs;
    return `${lease.record.time}\t${JSON.stringify(fields).slice(0, -1)}`;
  }

  for (const [name, overrides] of Object.entries(VARIANTS)) {
    it(`writes the record time, a TAB and the record's JSON without its brace: ${name}`, () => {
      const lease = charge({ upstream: null, accuracy: 'estimated', ...overrides });
      if (name === 'no attempts') delete lease.record.attempts;
      expect(encodeLeaseCharge(lease, 76_804_050)).toBe(copied(lease, 76_804_050));
    });
  }

  it('leaves out accountUid and durationMs a record carries anyway', () => {
    const lease = { record: record() } as LeaseCharge;
    const prefix = leaseChargeJsonPrefix(lease.record, 9);
    expect(JSON.parse(`${prefix}}`)).toEqual({
      ...record(),
      accountUid: undefined,
      durationMs: undefined,
      costNano: 9,
    });
    expect(prefix).not.toContain('accountUid');
  });

  it("writes a renewal's progress as delivered TAB charge TAB the record without its cost", () => {
    const lease = charge({ upstream: 'up', accuracy: 'estimated' });
    const progress = { record: lease.record, deliveredNano: 1_200.4, chargeNano: 3_000 };
    const fields: Record<string, unknown> = { ...lease.record };
    delete fields.costNano;
    const prefix = JSON.stringify(fields).slice(0, -1);
    expect(encodeLeaseProgress(progress)).toBe(`1200\t3000\t${prefix}`);
    const odd = { ...progress, deliveredNano: Number.NaN, chargeNano: -5 };
    expect(encodeLeaseProgress(odd)).toBe(`0\t0\t${prefix}`);
  });

  it('is empty without a charge', () => {
    expect(encodeLeaseCharge(undefined, 1)).toBe('');
  });
});
