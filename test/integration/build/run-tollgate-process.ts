/**
 * Test support: `node bin/tollgate.js <command>` as a child process in a given tree, its output
 * collected, a bounded wait for a condition, and a stop by SIGTERM that reports the exit code. A
 * process is killed with SIGKILL after `lifetimeMs` whatever the test does, so none outlives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface TollgateProcess {
  child: ChildProcess;
  output(): string;
  /** Polls `check` every 100 ms until it returns a value; throws with the output after `ms`. */
  waitFor<T>(
    what: string,
    check: () => Promise<T | undefined> | T | undefined,
    ms?: number,
  ): Promise<T>;
  /** SIGTERM, then the exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
  exited: Promise<unknown[]>;
}

export function startTollgateProcess(options: {
  cwd: string;
  args: readonly string[];
  environment: Record<string, string>;
  lifetimeMs?: number;
}): TollgateProcess {
  const child = spawn(process.execPath, ['bin/tollgate.js', ...options.args], {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.environment },
  });
  const exited = once(child, 'exit');
  const killer = setTimeout(() => child.kill('SIGKILL'), options.lifetimeMs ?? 60_000);
  void exited.then(() => {
    clearTimeout(killer);
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    exited,
    output: () => output,
    async waitFor(what, check, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        let value: Awaited<ReturnType<typeof check>>;
        try {
          value = await check();
        } catch {
          value = undefined;
        }
        if (value !== undefined) return value;
        if (!running()) throw new Error(`exited before ${what}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (running()) child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}
