/**
 * The command table against the commands' own parsers (every flag the help lists is one the
 * command takes; the gateway's and operator's flags are exactly their settings), the help text,
 * and the argument check.
 */
import { describe, expect, it } from 'vitest';
import { parseConsoleConfig } from '../console/server/console-config.js';
import { gatewaySettingsSchema } from '../gateway/gateway-config.js';
import { parseRecorderConfig, RECORDER_FLAGS } from '../ledger/recorder-config.js';
import { parseLocalConfig } from '../local/local-config.js';
import { takeDemoFlag } from '../local/start-demo-world.js';
import { operatorSettingsSchema } from '../operator/operator-config.js';
import { checkArguments, UsageError } from './check-arguments.js';
import { COMMANDS, findCommand, type CommandSpec } from './commands.js';
import { formatCommandHelp, formatOverview } from './format-help.js';

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function command(name: string): CommandSpec {
  const found = findCommand(name);
  if (found === undefined) throw new Error(`no command ${name}`);
  return found;
}

function flagNames(name: string): string[] {
  return command(name)
    .flags.map((flag) => flag.name)
    .sort();
}

/** The parser's verdict on one flag: refused as unknown, or taken (its value may be invalid). */
function refusedAsUnknown(parse: (args: string[]) => unknown, flag: string): boolean {
  try {
    parse([`--${flag}`, 'x']);
    return false;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || /unknown flag/.test(String(error));
  }
}

describe('the command table', () => {
  it('lists the gateway flags the gateway settings have, and --workers', () => {
    const settings = Object.keys(gatewaySettingsSchema.shape).map(kebab);
    expect(flagNames('gateway')).toEqual([...settings, 'workers'].sort());
  });

  it('lists the operator flags the operator settings have', () => {
    expect(flagNames('operator')).toEqual(
      Object.keys(operatorSettingsSchema.shape).map(kebab).sort(),
    );
  });

  it('lists every flag the recorder takes', () => {
    expect(flagNames('recorder')).toEqual(Object.keys(RECORDER_FLAGS).sort());
  });

  it.each([
    ['console', (args: string[]) => parseConsoleConfig(args, {})],
    ['recorder', (args: string[]) => parseRecorderConfig(args, {})],
    ['local', (args: string[]) => parseLocalConfig(takeDemoFlag(args, {}).rest, {})],
  ])('lists only flags that %s takes', (name, parse) => {
    const unknown = flagNames(name).filter((flag) => refusedAsUnknown(parse, flag));
    expect(unknown).toEqual([]);
    // The check itself tells an unknown flag apart.
    expect(refusedAsUnknown(parse, 'no-such-flag')).toBe(true);
  });
});

describe('the help text', () => {
  it('names every command with its summary', () => {
    const overview = formatOverview(COMMANDS);
    // The longest names (operator, recorder, simulate) set the column.
    for (const each of COMMANDS) {
      expect(overview).toContain(`\n  ${each.name.padEnd(8)}  ${each.summary}\n`);
    }
    expect(overview).toContain("Run 'tollgate <command> --help'");
  });

  it('lists every flag of a command with its value, environment variable and default', () => {
    const help = formatCommandHelp(command('local'));
    for (const flag of command('local').flags) expect(help).toContain(`--${flag.name}`);
    expect(help).toMatch(
      /^ {2}--port PORT +Gateway port \(0 = any free port, and for the ports below too\) \(env TOLLGATE_PORT; default 8080\)$/m,
    );
    expect(help).toMatch(/^ {2}--no-demo +No demo world \(env TOLLGATE_DEMO=false\)$/m);
    expect(help).toContain('docs/commands/local.md');
  });
});

describe('checkArguments', () => {
  const local = command('local');

  it('passes known flags with their values, in both spellings', () => {
    expect(checkArguments(local, ['--port', '0', '--data=/tmp/x', '--no-demo'])).toEqual({
      help: false,
    });
  });

  it('asks for the help on --help or -h anywhere', () => {
    expect(checkArguments(local, ['--port', '0', '--help'])).toEqual({ help: true });
    expect(checkArguments(local, ['-h'])).toEqual({ help: true });
  });

  it('refuses a flag the command does not have, named without its value', () => {
    expect(() => checkArguments(local, ['--workers', '2'])).toThrow(UsageError);
    expect(() => checkArguments(local, ['--prot=8080'])).toThrow("unknown flag '--prot'");
    expect(() => checkArguments(local, ['-p', '8080'])).toThrow("unknown flag '-p'");
  });

  it("skips a flag's value, even one that looks like a flag", () => {
    expect(checkArguments(command('simulate'), ['--credential', '--odd'])).toEqual({ help: false });
  });
});
