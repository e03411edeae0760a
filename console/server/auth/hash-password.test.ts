import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, verifyPassword } from './hash-password.js';

/** A hash in the stored format with the given scrypt parameters. */
function encode(password: string, parameters: { logN: number; r: number; p: number }): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, {
    N: 2 ** parameters.logN,
    r: parameters.r,
    p: parameters.p,
    maxmem: 512 * 1024 * 1024,
  });
  const { logN, r, p } = parameters;
  return ['scrypt', logN, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

describe('password hashes', () => {
  it('writes scrypt N=2^15 r=8 p=1 with a 16-byte salt and a 32-byte hash', async () => {
    const hash = await hashPassword('correct horse');
    const [name, logN, r, p, salt, key] = hash.split('$');
    expect([name, logN, r, p]).toEqual(['scrypt', '15', '8', '1']);
    expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
    expect(await hashPassword('correct horse')).not.toBe(hash);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsf', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('accepts stronger parameters than the default', async () => {
    expect(await verifyPassword('pw', encode('pw', { logN: 16, r: 8, p: 1 }))).toBe(true);
  });

  it.each([
    ['N below 2^15', { logN: 14, r: 8, p: 1 }],
    ['N of 2^10', { logN: 10, r: 8, p: 1 }],
    ['r below 8', { logN: 15, r: 4, p: 1 }],
    ['p of 0', { logN: 15, r: 8, p: 0 }],
  ])('refuses a hash with weak parameters (%s) even for the right password', async (_, params) => {
    const weak =
      params.p === 0
        ? encode('pw', { ...params, p: 1 }).replace('$8$1$', '$8$0$')
        : encode('pw', params);
    expect(await verifyPassword('pw', weak)).toBe(false);
  });

  it('refuses malformed hashes and a hash of the wrong length', async () => {
    const good = await hashPassword('pw');
    const parts = good.split('$');
    const short = [...parts.slice(0, 5), Buffer.alloc(16).toString('base64')].join('$');
    for (const encoded of [
      '',
      'pw',
      'bcrypt$15$8$1$a$b',
      good.replace('scrypt', 'SCRYPT'),
      short,
    ]) {
      expect(await verifyPassword('pw', encoded)).toBe(false);
    }
  });

  it('keeps one dummy hash for unknown usernames that no password matches', async () => {
    const dummy = await dummyPasswordHash();
    expect(await dummyPasswordHash()).toBe(dummy);
    expect(dummy.startsWith('scrypt$15$8$1$')).toBe(true);
    expect(await verifyPassword('', dummy)).toBe(false);
  });
});
