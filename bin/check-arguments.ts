/**
 * Checks a command's arguments against its flags in the command table before the command runs:
 * `--help` / `-h` anywhere asks for the help; a flag the command does not have is a usage error
 * (exit code 2) that names it and the help. Values are the command's own parser's business; a
 * flag that takes a value skips the next argument (`--port 8080`) unless given as `--port=8080`.
 */
import type { CommandSpec } from './commands.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export function checkArguments(command: CommandSpec, args: readonly string[]): { help: boolean } {
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? '';
    if (argument === '--help' || argument === '-h') return { help: true };
    if (!argument.startsWith('-')) continue;
    const name = argument.replace(/^--?/, '').split('=')[0] ?? '';
    const flag = command.flags.find((candidate) => candidate.name === name);
    if (flag === undefined || !argument.startsWith('--')) {
      throw new UsageError(`unknown flag '${argument.split('=')[0] ?? argument}'`);
    }
    if (flag.value !== undefined && !argument.includes('=')) index++;
  }
  return { help: false };
}
