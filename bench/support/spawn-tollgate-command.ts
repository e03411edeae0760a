/**
 * Starts one `tollgate` command as users run it: `node bin/tollgate.js <command>` from the compiled
 * build (no tsx loader, no bench code in the process), its settings in environment variables,
 * optionally pinned to CPUs with `taskset`. Its stdout and stderr go to a file, as a service's
 * log would (a pipe the bench reads would make the bench's reading part of the measure), read back
 * for a banner or a failure report. Stopped with SIGTERM, SIGKILL after a grace period, and killed
 * when the bench exits.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { pinnedCommand } from './pinned-command.js';

const entry = fileURLToPath(new URL('../../bin/tollgate.js', import.meta.url));

export interface TollgateProcess {
  pid: number;
  exited(): boolean;
  /** Resolves with what `match` returns for the log's lines once it is not undefined. */
  waitForLog<T>(match: (lines: readonly string[]) => T | undefined, timeoutMs: number): Promise<T>;
  /** The last lines of its log, for a failure report. */
  tail(): string[];
  /** Every line of its log so far. */
  log(): string[];
  stop(): Promise<void>;
}

export function spawnTollgateCommand(options: {
  args: readonly string[];
  env: Record<string, string | undefined>;
  cpus: string | null;
  /** The file its stdout and stderr go to (as `tollgate ... > file 2>&1`). */
  logFile: string;
  /** Node flags on the command line (for V8 flags NODE_OPTIONS does not take, e.g. `--trace-gc`). */
  nodeArgs?: readonly string[];
  /** A command the process runs under (`chrt -i 0`), after `taskset`. */
  wrapper?: readonly string[];
}): TollgateProcess {
  const { command, args } = pinnedCommand(options.cpus, options.wrapper, [
    process.execPath,
    ...(options.nodeArgs ?? []),
    entry,
    ...options.args,
  ]);
  const log = openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  if (child.pid === undefined) throw new Error(`could not start tollgate ${options.args[0] ?? ''}`);
  const name = `tollgate ${options.args[0] ?? ''}`;
  const lines = (): string[] => {
    try {
      return readFileSync(options.logFile, 'utf8').split('\n');
    } catch {
      return [];
    }
  };
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    pid: child.pid,
    exited,
    waitForLog: async <T>(
      match: (lines: readonly string[]) => T | undefined,
      timeoutMs: number,
    ) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const value = match(lines());
        if (value !== undefined) return value;
        if (exited()) throw new Error(`${name} exited: ${lines().slice(-40).join('\n')}`);
        await sleep(200);
      }
      throw new Error(
        `${name}: not ready within ${timeoutMs} ms: ${lines().slice(-40).join('\n')}`,
      );
    },
    tail: () => lines().slice(-40),
    log: lines,
    stop: async () => {
      if (exited()) return;
      const done = once(child, 'exit');
      child.kill('SIGTERM');
      const grace = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(grace);
    },
  };
}

/** One metric's value (the sum of its series) from a Prometheus text page; null when absent. */
export function metricSum(text: string, name: string): number | null {
  let sum: number | null = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (!rest.startsWith(' ') && !rest.startsWith('{')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) sum = (sum ?? 0) + value;
  }
  return sum;
}
