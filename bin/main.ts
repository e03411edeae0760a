/** `tollgate <command>`: one binary, one subcommand per part. */
import { runCommand, commandNames } from './commands.js';

const [command, ...args] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(`usage: tollgate <${commandNames().join('|')}> [flags]\n`);
  process.exit(command === undefined ? 2 : 0);
}
try {
  await runCommand(command, args);
} catch (error) {
  process.stderr.write(
    `tollgate ${command}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
