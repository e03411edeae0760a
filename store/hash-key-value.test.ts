import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashKeyValue } from './hash-key-value.js';

describe('hashKeyValue', () => {
  const pepper = Buffer.from('a-pepper-of-sufficient-length-000', 'utf8');

  it('is the hex HMAC-SHA256 of the value under the pepper', () => {
    // RFC 4231 test case 2.
    expect(hashKeyValue(Buffer.from('Jefe'), 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    const expected = createHmac('sha256', pepper).update('sk-tg-abc').digest('hex');
    expect(hashKeyValue(pepper, 'sk-tg-abc')).toBe(expected);
  });

  it('differs by value and by pepper and never contains the value', () => {
    const one = hashKeyValue(pepper, 'sk-tg-one');
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKeyValue(pepper, 'sk-tg-two')).not.toBe(one);
    expect(hashKeyValue(Buffer.from('another pepper'), 'sk-tg-one')).not.toBe(one);
    expect(one).not.toContain('one');
  });
});
