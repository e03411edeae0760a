/**
 * Starts one bench process (`node --import tsx <script>`) with an IPC channel, optionally pinned to
 * CPUs with `taskset`, waits for its `ready` message, and stops it: SIGTERM, then SIGKILL after a
 * grace period. Every child is also killed when the bench exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { pinnedCommand } from './pinned-command.js';

export interface BenchChild {
  process: ChildProcess;
  pid: number;
  ready: Record<string, unknown>;
  /** Sends a message and resolves with the next message back. */
  ask(message: unknown, timeoutMs: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function nextMessage(child: ChildProcess, timeoutMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`child ${child.pid ?? '?'} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message: Record<string, unknown>): void => {
      cleanup();
      resolve(message);
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`child ${child.pid ?? '?'} exited (${code ?? 'signal'})`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function spawnBenchChild(options: {
  script: string;
  args?: readonly string[];
  cpus?: string | null;
  nodeFlags?: readonly string[];
  /** A command the process runs under (`valgrind --tool=callgrind ...`), after `taskset`. */
  wrapper?: readonly string[];
  /** How long to wait for its `ready` message (default 60 s). */
  readyTimeoutMs?: number;
}): Promise<BenchChild> {
  const scriptPath = fileURLToPath(new URL(options.script, import.meta.url));
  const nodeArgs = [
    ...(options.nodeFlags ?? []),
    '--import',
    'tsx',
    scriptPath,
    ...(options.args ?? []),
  ];
  const { command, args } = pinnedCommand(options.cpus, options.wrapper, [
    process.execPath,
    ...nodeArgs,
  ]);
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const ready = await nextMessage(child, options.readyTimeoutMs ?? 60_000);
  if (child.pid === undefined) throw new Error(`could not start ${options.script}`);
  const pid = child.pid;
  return {
    process: child,
    pid,
    ready,
    ask: (message, timeoutMs) => {
      const answer = nextMessage(child, timeoutMs);
      child.send(message as object);
      return answer;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const grace = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(grace);
    },
  };
}
