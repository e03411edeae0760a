/**
 * The console benchmark's `tollgate local` (through tsx, like the rest of the bench) in a child
 * process on a private data folder, its ledger on the given PostgreSQL database, every port free.
 * Reads the console, gateway and kubeconfig from its banner; stops it with SIGINT.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ConsoleLocal {
  consoleUrl: string;
  kubeconfigPath: string;
  tail(): string[];
  stop(): Promise<void>;
}

export async function startConsoleLocal(options: {
  dataDirectory: string;
  databaseUrl: string;
}): Promise<ConsoleLocal> {
  const main = fileURLToPath(new URL('../../../bin/main.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, 'local', '--data', options.dataDirectory, '--port', '0'],
    {
      env: { ...process.env, REDIS_URL: '', TOLLGATE_DATABASE_URL: options.databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const recent: string[] = [];
  const banner: Record<string, string> = {};
  const ready = new Promise<void>((resolve, reject) => {
    const onLine = (line: string): void => {
      recent.push(line);
      if (recent.length > 40) recent.shift();
      for (const label of ['console', 'kubeconfig']) {
        const value = new RegExp(`^\\s+${label}:\\s+(\\S+)`).exec(line)?.[1];
        if (value !== undefined) banner[label] = value;
      }
      if (banner.console !== undefined && banner.kubeconfig !== undefined) resolve();
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code) => {
      reject(new Error(`tollgate local exited (${code ?? 'signal'}): ${recent.join('\n')}`));
    });
  });
  const timer = setTimeout(kill, 180_000);
  try {
    await ready;
  } finally {
    clearTimeout(timer);
  }
  return {
    consoleUrl: banner.console ?? '',
    kubeconfigPath: banner.kubeconfig ?? '',
    tail: () => [...recent],
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const grace = setTimeout(kill, 20_000);
      await exited;
      clearTimeout(grace);
      process.off('exit', kill);
    },
  };
}
