/**
 * Upstream credentials are stored only sealed (DESIGN.md 4): AES-256-GCM with a random 12-byte IV.
 * Text form: `v1.` + base64(iv || tag || ciphertext). Opening checks the tag, so a tampered or
 * wrongly keyed value throws instead of returning garbage.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function checkKey(key32: Buffer): void {
  if (key32.length !== 32) throw new Error('credential key must be 32 bytes');
}

export function sealCredential(key32: Buffer, plaintext: string): string {
  checkKey(key32);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key32, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return VERSION_PREFIX + Buffer.concat([iv, tag, body]).toString('base64');
}

export function openCredential(key32: Buffer, sealed: string): string {
  checkKey(key32);
  if (!sealed.startsWith(VERSION_PREFIX)) throw new Error('unknown sealed credential version');
  const raw = Buffer.from(sealed.slice(VERSION_PREFIX.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed credential is too short');
  const iv = raw.subarray(0, IV_BYTES);
  const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key32, iv);
  decipher.setAuthTag(tag);
  const body = raw.subarray(IV_BYTES + TAG_BYTES);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
