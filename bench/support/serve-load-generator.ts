/**
 * Child process: the load generator. Takes commands over IPC (`run` one load against a URL), keeps
 * one undici pool per target, answers each command with its `LoadResult`, exits on `stop`.
 */
import { Pool } from 'undici';
import type { BenchCredentials, BenchRequestKind } from './describe-bench-requests.js';
import { holdStreams, runClosedLoop, runOpenLoop, type LoadResult } from './run-load-modes.js';

export type LoadCommand =
  | { type: 'stop' }
  | {
      type: 'run';
      url: string;
      connections: number;
      kinds: readonly BenchRequestKind[];
      credentials: BenchCredentials;
      load:
        | { mode: 'open'; rate: number; durationMs: number }
        | { mode: 'closed'; concurrency: number; durationMs: number }
        | { mode: 'hold'; streams: number; rampMs: number };
    };

const pools = new Map<string, Pool>();

function poolFor(url: string, connections: number): Pool {
  const key = `${url}#${connections}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new Pool(url, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    pools.set(key, pool);
  }
  return pool;
}

async function execute(command: Extract<LoadCommand, { type: 'run' }>): Promise<LoadResult> {
  const target = {
    dispatcher: poolFor(command.url, command.connections),
    kinds: command.kinds,
    credentials: command.credentials,
  };
  const load = command.load;
  switch (load.mode) {
    case 'open':
      return runOpenLoop(target, load);
    case 'closed':
      return runClosedLoop(target, load);
    case 'hold':
      return holdStreams(target, load);
  }
}

process.on('message', (message: LoadCommand) => {
  if (message.type === 'stop') {
    void Promise.all([...pools.values()].map((pool) => pool.destroy())).finally(() => {
      process.exit(0);
    });
    return;
  }
  execute(message).then(
    (result) => process.send?.({ type: 'result', result }),
    (error: unknown) => process.send?.({ type: 'failed', message: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
