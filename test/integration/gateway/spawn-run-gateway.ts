/**
 * `gateway/run-gateway.ts` as a real process, from the sources through tsx, for the tests that need
 * a gateway process of their own (the drain on SIGTERM, the lease sweep, the log): the given flags,
 * and the given variables on top of PATH only. Its stderr is piped (a failure to start shows there);
 * its stdout is ignored unless asked for.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

export function spawnRunGateway(options: {
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  stdout?: 'pipe' | 'ignore';
}): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      "const { run } = await import('./gateway/run-gateway.ts'); await run(process.argv.slice(1));",
      '--',
      ...options.args,
    ],
    {
      cwd: process.cwd(),
      stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'],
      env: { PATH: process.env.PATH, ...options.env },
    },
  );
}

/** Waits until `url` answers 200 (the gateway's `/readyz`), for at most 10 s. */
export async function waitUntilReady(url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const response = await request(url);
      await response.body.text();
      if (response.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`${url} never became ready`);
}
