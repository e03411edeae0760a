/**
 * The command the store's script runner sends (define-store-scripts.ts): FCALL, EVALSHA or EVAL as
 * an ioredis `Command` whose arguments are already the flat list of strings the wire takes. The base
 * constructor is given none (it would copy them with `Array.flat` and convert each in place), and
 * the RESP bytes are written here: every argument ASCII (keys, numbers, most records), the command
 * is written byte by byte into one scratch buffer and copied out at its exact size, so the socket
 * writes bytes, with no text built piece by piece, flattened, measured and encoded again on the
 * way out (`npx tsx bench/micro/script-command-bench.ts`; the text was about 9 KB of strings per
 * call in `bench/profile/profile-allocations.ts`).
 * A command with any other character, or too large for the scratch buffer (a captured body), is
 * built as text with each argument counted in bytes, as ioredis does. ioredis still reads `args`
 * for a cluster's key slot.
 */
import { Buffer } from 'node:buffer';
import { Command } from 'ioredis';

/** Written into, then copied out: the socket keeps the copy until its write is done. */
const scratch = Buffer.allocUnsafe(64 * 1024);
const NOT_ASCII = -1;
/** Shorter arguments are copied character by character; longer ones by one native write. */
const SHORT_ARGUMENT = 48;

export class ScriptCommand extends Command {
  constructor(name: 'fcall' | 'evalsha' | 'eval', args: string[]) {
    super(name, [], { replyEncoding: 'utf8' });
    this.args = args;
  }

  override toWritable(): string | Buffer {
    const args = this.args as string[];
    const length = writeAsciiCommand(this.name, args, scratch);
    if (length === NOT_ASCII) return respText(this.name, args);
    const bytes = Buffer.allocUnsafe(length);
    scratch.copy(bytes, 0, 0, length);
    return bytes;
  }
}

/** The command in RESP, each argument counted in bytes. */
function respText(name: string, args: readonly string[]): string {
  let text = `*${args.length + 1}\r\n$${name.length}\r\n${name}\r\n`;
  for (const arg of args) text += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
  return text;
}

/**
 * Writes the command in RESP into `into` and gives its length, or NOT_ASCII when an argument has a
 * character outside ASCII (its length in bytes is not its length in characters) or the command
 * might not fit.
 */
function writeAsciiCommand(name: string, args: readonly string[], into: Buffer): number {
  into[0] = 0x2a; // '*'
  let at = writeNumber(into, 1, args.length + 1);
  at = writeArgument(into, writeLineEnd(into, at), name);
  for (let index = 0; index < args.length && at !== NOT_ASCII; index++) {
    at = writeArgument(into, at, args[index] as string);
  }
  return at;
}

/** `$<length>\r\n<argument>\r\n` at `at`; the offset after it, or NOT_ASCII. */
function writeArgument(into: Buffer, start: number, arg: string): number {
  const { length } = arg;
  // Room for the worst case: three bytes per character, and the length line.
  if (start + length * 3 + 16 > into.length) return NOT_ASCII;
  into[start] = 0x24; // '$'
  const at = writeLineEnd(into, writeNumber(into, start + 1, length));
  if (length <= SHORT_ARGUMENT) {
    for (let index = 0; index < length; index++) {
      const code = arg.charCodeAt(index);
      if (code > 0x7f) return NOT_ASCII;
      into[at + index] = code;
    }
  } else if (into.write(arg, at, 'utf8') !== length) {
    // A character outside ASCII takes two or three bytes: then the bytes outnumber the characters.
    return NOT_ASCII;
  }
  return writeLineEnd(into, at + length);
}

function writeLineEnd(into: Buffer, at: number): number {
  into[at] = 0x0d;
  into[at + 1] = 0x0a;
  return at + 2;
}

/** A non-negative integer's decimal digits at `at`; the offset after them. */
function writeNumber(into: Buffer, at: number, value: number): number {
  if (value < 10) {
    into[at] = 0x30 + value;
    return at + 1;
  }
  const digits = String(value);
  for (let index = 0; index < digits.length; index++) into[at + index] = digits.charCodeAt(index);
  return at + digits.length;
}

/**
 * The wire arguments of a script call: function name, sha or body, then key count, keys, and
 * arguments as text.
 */
export function scriptArgs(
  head: string,
  keys: readonly string[],
  args: readonly (string | number)[],
): string[] {
  const all = new Array<string>(2 + keys.length + args.length);
  all[0] = head;
  all[1] = String(keys.length);
  let at = 2;
  for (const key of keys) all[at++] = key;
  for (const arg of args) all[at++] = typeof arg === 'string' ? arg : String(arg);
  return all;
}
