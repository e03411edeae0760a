/**
 * The bulk key benchmark's `tollgate local`: the real command (through tsx, like the rest of the
 * bench) in a child process on a private data folder and the bench's Redis, every port free. Reads
 * the gateway, metrics and kubeconfig from its banner; keeps draining its log; stops it with
 * SIGINT (a clean shutdown, so `--cpu-prof` can write its profile) and SIGKILL after a grace period.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface BulkLocal {
  pid: number;
  gatewayUrl: string;
  metricsUrl: string;
  kubeconfigPath: string;
  /** Log lines seen so far (stdout and stderr). */
  readonly logLines: number;
  /** The last log lines, for a failure report. */
  tail(): string[];
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function bannerValue(line: string, label: string): string | undefined {
  const match = new RegExp(`^\\s+${label}:\\s+(\\S+)`).exec(line);
  return match?.[1];
}

export async function startBulkLocal(options: {
  dataDirectory: string;
  redisUrl: string;
  /** Extra node flags (`--cpu-prof`, ...). */
  nodeFlags?: readonly string[];
  env?: Record<string, string>;
}): Promise<BulkLocal> {
  const main = fileURLToPath(new URL('../../bin/main.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeFlags ?? []),
      '--import',
      'tsx',
      main,
      'local',
      '--data',
      options.dataDirectory,
      '--port',
      '0',
    ],
    {
      env: { ...process.env, REDIS_URL: options.redisUrl, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  let logLines = 0;
  const recent: string[] = [];
  const banner: Record<string, string> = {};
  const ready = new Promise<void>((resolve, reject) => {
    const onLine = (line: string): void => {
      logLines++;
      recent.push(line);
      if (recent.length > 40) recent.shift();
      for (const label of ['gateway', 'gateway metrics', 'kubeconfig']) {
        const value = bannerValue(line, label);
        if (value !== undefined) banner[label] = value;
      }
      if (banner.kubeconfig !== undefined) resolve();
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('exit', (code) => {
      reject(new Error(`tollgate local exited (${code ?? 'signal'}): ${recent.join('\n')}`));
    });
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    await ready;
  } finally {
    clearTimeout(timer);
  }
  const { gateway, kubeconfig } = banner;
  const metrics = banner['gateway metrics'];
  if (child.pid === undefined || gateway === undefined || metrics === undefined) {
    throw new Error('tollgate local printed no banner');
  }
  return {
    pid: child.pid,
    gatewayUrl: gateway,
    metricsUrl: metrics,
    kubeconfigPath: kubeconfig ?? '',
    get logLines() {
      return logLines;
    },
    tail: () => [...recent],
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const grace = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(grace);
    },
  };
}
