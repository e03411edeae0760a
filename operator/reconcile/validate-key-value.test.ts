import { describe, expect, it } from 'vitest';
import { formatKeyHint, generateKeyValue, validateKeyValue } from './validate-key-value.js';

describe('validateKeyValue', () => {
  it('accepts 16 characters of letters, digits, _ and -', () => {
    expect(validateKeyValue('abcdefgh_1234-XY')).toEqual({ valid: true });
  });

  it('refuses 15 characters and says the length', () => {
    const check = validateKeyValue('abcdefghijklmno');
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.message).toMatch(/15 characters long; at least 16/);
  });

  it('refuses other characters without echoing the value', () => {
    const check = validateKeyValue('abcdefgh ijklmnop!');
    expect(check.valid).toBe(false);
    if (!check.valid) {
      expect(check.message).toMatch(/only letters, digits/);
      expect(check.message).not.toContain('abcdefgh');
    }
  });
});

describe('generateKeyValue', () => {
  it('makes sk-tg- + 40 base62 characters, different each time, always valid', () => {
    const values = new Set(Array.from({ length: 50 }, () => generateKeyValue()));
    expect(values.size).toBe(50);
    for (const value of values) {
      expect(value).toMatch(/^sk-tg-[A-Za-z0-9]{40}$/);
      expect(validateKeyValue(value)).toEqual({ valid: true });
    }
  });
});

describe('formatKeyHint', () => {
  it('shows the prefix and the last 4', () => {
    expect(formatKeyHint('sk-tg-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAbCd')).toBe('sk-tg-…AbCd');
  });

  it('never shows more than half of a short value', () => {
    const hint = formatKeyHint('abcdefghijklmnop');
    expect(hint).toBe('abcd…mnop');
  });
});
