/** `tollgate <command>`: one binary, one subcommand per part (the table is commands.ts). */
import { checkArguments, UsageError } from './check-arguments.js';
import { COMMANDS, findCommand } from './commands.js';
import { formatCommandHelp, formatOverview } from './format-help.js';

/** Exit code of a command line that is wrong (an unknown command or flag), as getopt tools use. */
const USAGE = 2;

function refuse(message: string, hint: string): never {
  process.stderr.write(`${message}\n${hint}\n`);
  process.exit(USAGE);
}

const [name, ...args] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
  process.stdout.write(formatOverview(COMMANDS));
  process.exit(name === undefined ? USAGE : 0);
}
const command = findCommand(name);
if (command === undefined) {
  refuse(
    `tollgate: unknown command '${name}'; commands: ${COMMANDS.map((known) => known.name).join(', ')}`,
    "Run 'tollgate --help' for the commands.",
  );
}
try {
  if (checkArguments(command, args).help) {
    process.stdout.write(formatCommandHelp(command));
    process.exit(0);
  }
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  refuse(`tollgate ${name}: ${error.message}`, `Run 'tollgate ${name} --help' for its flags.`);
}
try {
  const module = await command.load();
  await module.run(args);
} catch (error) {
  process.stderr.write(
    `tollgate ${name}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
