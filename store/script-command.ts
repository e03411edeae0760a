/**
 * The command the store's script runner sends (define-store-scripts.ts): EVALSHA (or EVAL) as an
 * ioredis `Command` whose arguments are already the flat list of strings the wire takes. The base
 * constructor is given none (it would copy them with `Array.flat` and convert each in place), and
 * the RESP text is built here in one pass: about 1.7 to 2.0 µs per command instead of 4.0 to 4.1
 * (`npx tsx bench/script-command-bench.ts`). ioredis still reads `args` for a cluster's key slot.
 */
import { Command } from 'ioredis';

export class ScriptCommand extends Command {
  constructor(name: 'evalsha' | 'eval', args: string[]) {
    super(name, [], { replyEncoding: 'utf8' });
    this.args = args;
  }

  override toWritable(): string {
    const args = this.args as string[];
    let text = `*${args.length + 1}\r\n$${this.name.length}\r\n${this.name}\r\n`;
    for (const arg of args) text += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
    return text;
  }
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
