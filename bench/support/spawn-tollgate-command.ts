/**
 * Starts one `tollgate` command as users run it: `node bin/tollgate.js <command>` from the compiled
 * build (no tsx loader, no bench code in the process), its settings in environment variables,
 * optionally pinned to CPUs with `taskset`. Its log lines are read (for a banner) and dropped; the
 * last ones are kept for a failure report. Stopped with SIGTERM, SIGKILL after a grace period, and
 * killed when the bench exits.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../../bin/tollgate.js', import.meta.url));

export interface TollgateProcess {
  pid: number;
  exited(): boolean;
  /** Resolves with the first log line `match` accepts (its result). */
  waitForLine<T>(match: (line: string) => T | undefined, timeoutMs: number): Promise<T>;
  tail(): string[];
  stop(): Promise<void>;
}

export function spawnTollgateCommand(options: {
  args: readonly string[];
  env: Record<string, string | undefined>;
  cpus: string | null;
}): TollgateProcess {
  const [command, args] =
    options.cpus === null
      ? [process.execPath, [entry, ...options.args]]
      : ['taskset', ['-c', options.cpus, process.execPath, entry, ...options.args]];
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const recent: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const onLine = (line: string): void => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
    for (const watcher of watchers) watcher(line);
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  if (child.pid === undefined) throw new Error(`could not start tollgate ${options.args[0] ?? ''}`);
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    pid: child.pid,
    exited,
    waitForLine: <T>(match: (line: string) => T | undefined, timeoutMs: number) =>
      new Promise<T>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          watchers.delete(watcher);
          child.off('exit', onExit);
        };
        const watcher = (line: string): void => {
          const value = match(line);
          if (value === undefined) return;
          done();
          resolve(value);
        };
        const onExit = (code: number | null): void => {
          done();
          reject(
            new Error(
              `tollgate ${options.args[0] ?? ''} exited (${code ?? 'signal'}): ${recent.join('\n')}`,
            ),
          );
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`tollgate ${options.args[0] ?? ''}: no expected line within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        watchers.add(watcher);
        child.once('exit', onExit);
      }),
    tail: () => [...recent],
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

/** Polls `check` until it returns a value (errors count as not yet), or fails after `timeoutMs`. */
export async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out waiting for ${what} ${last}`);
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
