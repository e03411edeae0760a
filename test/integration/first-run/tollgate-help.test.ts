/**
 * `tollgate --help` and `tollgate <command> --help` as the built command prints them, and the
 * refusal of an unknown command or flag (exit code 2, with the help hint).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../bin/commands.js';

const tollgate = fileURLToPath(new URL('../../../bin/tollgate.js', import.meta.url));

function run(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [tollgate, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('tollgate --help', () => {
  it('lists every command', () => {
    const help = run(['--help']);
    expect(help.code).toBe(0);
    const listed = [...help.stdout.matchAll(/^ {2}(\S+) {2,}\S/gm)].map((match) => match[1]);
    expect(listed).toEqual(COMMANDS.map((command) => command.name));
  });

  it.each(COMMANDS.map((command) => [command.name, command]))(
    'tollgate %s --help lists its flags',
    (name, command) => {
      const help = run([name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`usage: tollgate ${name} [flags]`);
      const listed = [...help.stdout.matchAll(/^ {2}--([a-z-]+)/gm)].map((match) => match[1]);
      expect(listed).toEqual([...command.flags.map((flag) => flag.name), 'help']);
    },
  );

  it('refuses an unknown flag with the help hint and exit code 2', () => {
    const refused = run(['local', '--data', '/nonexistent', '--bogus']);
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "tollgate local: unknown flag '--bogus'\nRun 'tollgate local --help' for its flags.\n",
    });
  });

  it('refuses an unknown command with exit code 2', () => {
    const refused = run(['serve']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("tollgate: unknown command 'serve'");
    expect(refused.stderr).toContain("Run 'tollgate --help' for the commands.");
  });
});
