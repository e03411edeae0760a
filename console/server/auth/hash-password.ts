/**
 * Password hashes for local console users: scrypt (memory-hard), N = 2^15, r = 8, p = 1, 16-byte
 * salt, 32-byte hash, written as `scrypt$<log2 N>$<r>$<p>$<salt base64>$<hash base64>`. Verifying
 * compares in constant time and refuses parameters weaker than the default.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? R) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => {
      if (error === null) resolve(key);
      else reject(error);
    });
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: 2 ** LOG_N, r: R, p: P });
  return ['scrypt', LOG_N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

const FORMAT = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const match = FORMAT.exec(encoded);
  if (match === null) return false;
  const [, logN, r, p, salt, hash] = match;
  const parameters = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (parameters.logN < LOG_N || parameters.logN > 22 || parameters.r < R || parameters.p < 1) {
    return false;
  }
  const expected = Buffer.from(hash ?? '', 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, Buffer.from(salt ?? '', 'base64'), {
    N: 2 ** parameters.logN,
    r: parameters.r,
    p: parameters.p,
  });
  return timingSafeEqual(actual, expected);
}

/** A hash to compare against when the username is unknown, so both paths take as long. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}
