import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openCredential, sealCredential } from './seal-credential.js';

describe('sealCredential / openCredential', () => {
  const key = randomBytes(32);
  const secret = JSON.stringify({ apiKey: 'sk-ant-secret-value-é' });

  it('round-trips and uses a versioned base64 text form without the plaintext', () => {
    const sealed = sealCredential(key, secret);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('secret');
    expect(openCredential(key, sealed)).toBe(secret);
  });

  it('uses a fresh IV each time', () => {
    expect(sealCredential(key, secret)).not.toBe(sealCredential(key, secret));
  });

  it('refuses a wrong key, a tampered body, an unknown version and a short value', () => {
    const sealed = sealCredential(key, secret);
    expect(() => openCredential(randomBytes(32), sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => openCredential(key, `v1.${raw.toString('base64')}`)).toThrow();
    expect(() => openCredential(key, `v2.${sealed.slice(3)}`)).toThrow(/version/);
    expect(() => openCredential(key, 'v1.AAAA')).toThrow(/short/);
  });

  it('requires a 32-byte key', () => {
    expect(() => sealCredential(randomBytes(16), secret)).toThrow(/32 bytes/);
  });
});
