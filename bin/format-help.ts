/** The help text of `tollgate` and of each command, from the command table. Pure. */
import type { CommandSpec } from './commands.js';
import type { FlagSpec } from './flags/flag-spec.js';

const DOCS = 'docs/commands';

function column(rows: readonly [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

export function formatOverview(commands: readonly CommandSpec[]): string {
  return [
    'usage: tollgate <command> [flags]',
    '',
    'commands:',
    ...column(commands.map((command) => [command.name, command.summary])),
    '',
    "Run 'tollgate <command> --help' for a command's flags.",
    `Flags win over environment variables, which win over defaults. More: ${DOCS}/<command>.md`,
    '',
  ].join('\n');
}

function flagLeft(flag: FlagSpec): string {
  return flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
}

function flagRight(flag: FlagSpec): string {
  const notes = [
    ...(flag.env === undefined ? [] : [`env ${flag.env}`]),
    ...(flag.fallback === undefined ? [] : [`default ${flag.fallback}`]),
  ];
  return notes.length === 0 ? flag.about : `${flag.about} (${notes.join('; ')})`;
}

export function formatCommandHelp(command: CommandSpec): string {
  return [
    `usage: tollgate ${command.name} [flags]`,
    '',
    command.summary,
    '',
    'flags:',
    ...column([
      ...command.flags.map((flag): [string, string] => [flagLeft(flag), flagRight(flag)]),
      ['--help, -h', 'This help'],
    ]),
    '',
    `More: ${DOCS}/${command.name}.md`,
    '',
  ].join('\n');
}
