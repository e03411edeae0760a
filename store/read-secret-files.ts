/**
 * The two secrets the operator and the gateway share, read from mounted files: the pepper key values
 * are hashed with, and the AES-256-GCM key upstream credentials are sealed with.
 */
import { readFileSync } from 'node:fs';

/** A 32-byte key from a file holding raw bytes, base64 or hex. */
export function readKeyFile(path: string): Buffer {
  const raw = readFileSync(path);
  if (raw.length === 32) return raw;
  const text = raw.toString('utf8').trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  const decoded = Buffer.from(text, 'base64');
  if (decoded.length === 32) return decoded;
  throw new Error(`${path} must hold a 32-byte key (raw, hex or base64)`);
}

/** The pepper: the file's exact bytes (a mounted Secret holds exactly the Secret's value). */
export function readPepperFile(path: string): Buffer {
  return readFileSync(path);
}
