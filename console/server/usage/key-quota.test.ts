import { describe, expect, it } from 'vitest';
import { quotaLimitNano } from './key-quota.js';

describe('key quota limit', () => {
  it('reads USD amounts as nano-USD', () => {
    expect(quotaLimitNano('1')).toBe(1_000_000_000);
    expect(quotaLimitNano('12.5')).toBe(12_500_000_000);
    expect(quotaLimitNano('0.000001')).toBe(1_000);
    expect(quotaLimitNano(3)).toBe(3_000_000_000);
  });

  it('has no quota when absent, zero or malformed', () => {
    for (const value of [undefined, '0', '0.0', '', '-1', '1.1234567', 'abc']) {
      expect(quotaLimitNano(value), String(value)).toBeNull();
    }
  });
});
