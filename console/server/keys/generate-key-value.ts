/** Key values the console makes: `sk-tg-` + 40 random base62 characters, and short name suffixes. */
import { randomInt } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomText(alphabet: string, length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1)
    text += alphabet.charAt(randomInt(alphabet.length));
  return text;
}

export function generateKeyValue(): string {
  return `sk-tg-${randomText(BASE62, 40)}`;
}

export function randomSuffix(length = 5): string {
  return randomText(LOWER, length);
}
