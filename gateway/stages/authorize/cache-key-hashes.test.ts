import { describe, expect, it } from 'vitest';
import { hashKeyValue } from '../../../store/hash-key-value.js';
import { cacheKeyHashes } from './cache-key-hashes.js';

describe('cacheKeyHashes', () => {
  const pepper = Buffer.from('a-pepper-of-sufficient-length-000', 'utf8');

  it('gives the same hash as hashKeyValue, first and again', () => {
    const hash = cacheKeyHashes(pepper);
    for (const value of ['sk-tg-one', 'sk-tg-two', 'sk-tg-one', 'ключ', 'sk-tg-two']) {
      expect(hash(value)).toBe(hashKeyValue(pepper, value));
    }
  });

  it('stays right past its size (it starts over) and with the cache off', () => {
    const small = cacheKeyHashes(pepper, 2);
    const off = cacheKeyHashes(pepper, 0);
    for (let round = 0; round < 3; round++) {
      for (const value of ['a', 'b', 'c', 'd']) {
        expect(small(value)).toBe(hashKeyValue(pepper, value));
        expect(off(value)).toBe(hashKeyValue(pepper, value));
      }
    }
  });

  it('keeps peppers apart', () => {
    const other = Buffer.from('another pepper', 'utf8');
    expect(cacheKeyHashes(pepper)('sk-tg-one')).not.toBe(cacheKeyHashes(other)('sk-tg-one'));
  });
});
