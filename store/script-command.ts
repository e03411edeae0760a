/**
 * The command the store's script runner sends (define-store-scripts.ts): EVALSHA (or EVAL) as an
 * ioredis `Command` whose arguments are already the flat list of strings the wire takes. The base
 * constructor is given none (it would copy them with `Array.flat` and convert each in place), and
 * the RESP text is built here, with one byte count for the whole text when every argument is ASCII
 * instead of one per argument: about 1.9 µs per command against 4.5 for ioredis's own, the text
 * read once as the socket's write reads it (`npx tsx bench/micro/script-command-bench.ts`; 2.1 to 2.3
 * with a byte count per argument). ioredis still reads `args` for a cluster's key slot.
 */
import { Command } from 'ioredis';

export class ScriptCommand extends Command {
  constructor(name: 'evalsha' | 'eval', args: string[]) {
    super(name, [], { replyEncoding: 'utf8' });
    this.args = args;
  }

  override toWritable(): string {
    const args = this.args as string[];
    const text = respText(this.name, args, characters);
    // Every argument ASCII (keys, numbers, most records): characters are bytes. One byte count of
    // the whole text instead of one per argument.
    if (Buffer.byteLength(text) === text.length) return text;
    return respText(this.name, args, bytes);
  }
}

const characters = (arg: string): number => arg.length;
const bytes = (arg: string): number => Buffer.byteLength(arg);

/** The command in RESP, each argument's length given by `length`. */
function respText(name: string, args: readonly string[], length: (arg: string) => number): string {
  let text = `*${args.length + 1}\r\n$${name.length}\r\n${name}\r\n`;
  for (const arg of args) text += `$${length(arg)}\r\n${arg}\r\n`;
  return text;
}

/** The wire arguments of a script call: sha (or body), key count, keys, then arguments as text. */
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
