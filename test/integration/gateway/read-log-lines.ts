/**
 * A gateway process at `info` whose stdout is kept, its JSON log lines read from it, and a poll
 * for one of them.
 */
import { startGatewayProcess, type GatewayProcess } from './spawn-run-gateway.js';

export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  code?: string;
}

/** Every JSON line of `output` (other lines are skipped). */
export function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** What `find` returns once it returns something, polled every 25 ms for 5 s at most. */
export async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never seen: ${what}`);
}

export interface LoggedGateway {
  gateway: GatewayProcess;
  /** The JSON lines written so far. */
  lines: () => LogLine[];
  /** Everything written so far. */
  output: () => string;
}

/** `startGatewayProcess` at `info`, with everything it writes kept for `lines`. */
export async function startLoggedGateway(namespace: string): Promise<LoggedGateway> {
  const gateway = await startGatewayProcess({
    namespace,
    env: { TOLLGATE_LOG_LEVEL: 'info' },
    stdout: 'pipe',
  });
  let output = '';
  gateway.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return { gateway, lines: () => logLines(output), output: () => output };
}
