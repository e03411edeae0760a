/** Key values: what a chosen value must look like, how a generated one is made, and its hint. */
import { randomInt } from 'node:crypto';

export const MIN_KEY_LENGTH = 16;
export const MAX_KEY_LENGTH = 256;
export const GENERATED_KEY_PREFIX = 'sk-tg-';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALLOWED = /^[A-Za-z0-9_-]*$/;

export type KeyValueCheck = { valid: true } | { valid: false; message: string };

/** Never puts the value itself into the message. */
export function validateKeyValue(value: string): KeyValueCheck {
  if (value.length < MIN_KEY_LENGTH) {
    return {
      valid: false,
      message: `the key value is ${value.length} characters long; at least ${MIN_KEY_LENGTH} are required`,
    };
  }
  if (value.length > MAX_KEY_LENGTH) {
    return {
      valid: false,
      message: `the key value is ${value.length} characters long; at most ${MAX_KEY_LENGTH} are allowed`,
    };
  }
  if (!ALLOWED.test(value)) {
    return {
      valid: false,
      message: 'the key value may contain only letters, digits, "_" and "-"',
    };
  }
  return { valid: true };
}

/** `sk-tg-` + 40 random base62 characters (about 238 bits). */
export function generateKeyValue(): string {
  let out = GENERATED_KEY_PREFIX;
  for (let i = 0; i < 40; i++) out += BASE62.charAt(randomInt(BASE62.length));
  return out;
}

/** `sk-tg-…AbCd`: up to 6 leading characters + the last 4, never more than half of a short value. */
export function formatKeyHint(value: string): string {
  const head = value.slice(0, Math.min(6, Math.max(0, Math.floor(value.length / 2) - 4)));
  return `${head}…${value.slice(-4)}`;
}
