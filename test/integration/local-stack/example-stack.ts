/**
 * Test support: local mode as the README walks through it. `tollgate simulate` runs as a real
 * process; `examples/` is applied with kubectl, with only the simulator's port rewritten (the
 * examples say 8090, the test takes a free port). Everything stops in `close()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGatewaySettings } from '../../../gateway/gateway-config.js';
import { startLocalStack, type LocalStack } from '../../../local/start-local-stack.js';
import { runKubectl } from '../control-plane/control-plane-harness.js';

const tollgate = fileURLToPath(new URL('../../../bin/tollgate.js', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
export const EXAMPLE_SIMULATOR = 'http://127.0.0.1:8090';

export interface ExampleStack {
  stack: LocalStack;
  simulatorUrl: string;
  /** kubectl that must succeed; returns stdout. */
  kubectl(args: readonly string[], input?: string): Promise<string>;
  /** The value of a key in a Secret, decoded; waits until the operator has created it. */
  readSecret(ref: { namespace: string; name: string; key: string }): Promise<string>;
  close(): Promise<void>;
}

export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `tollgate simulate --port 0`, as a child process; resolves with its URL. */
async function startSimulate(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [tollgate, 'simulate', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tollgate simulate did not start: ${output}`));
    }, 30_000);
    child.stdout.on('data', (text: string) => {
      output += text;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`tollgate simulate exited early: ${output}`));
    });
  });
  return { url, child };
}

/** Every file of examples/, in order, with the simulator address replaced. */
export function readExamples(simulatorUrl: string): string {
  return readdirSync(examples)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => readFileSync(join(examples, name), 'utf8'))
    .join('\n---\n')
    .replaceAll(EXAMPLE_SIMULATOR, simulatorUrl);
}

export async function startExampleStack(options: {
  usageRefreshMs: number;
}): Promise<ExampleStack> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'tollgate-examples-'));
  const simulator = await startSimulate();
  const stack = await startLocalStack({
    dataDirectory,
    host: '127.0.0.1',
    port: 0,
    apiPort: 0,
    metricsPort: 0,
    operatorMetricsPort: 0,
    gateway: parseGatewaySettings([], {}),
    logLevel: 'warn',
    usageRefreshMs: options.usageRefreshMs,
  });
  const kubectl = async (args: readonly string[], input?: string): Promise<string> => {
    const result = await runKubectl(stack.local.kubeconfigPath, {
      args,
      cacheDirectory: join(dataDirectory, 'kubectl-cache'),
      ...(input === undefined ? {} : { input }),
    });
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  await kubectl(['apply', '-f', '-'], readExamples(simulator.url));
  return {
    stack,
    simulatorUrl: simulator.url,
    kubectl,
    readSecret: async (ref) => {
      const encoded = await eventually(
        () =>
          kubectl([
            'get',
            'secret',
            ref.name,
            '-n',
            ref.namespace,
            '-o',
            `jsonpath={.data.${ref.key}}`,
          ]).catch(() => ''),
        (value) => value !== '',
      );
      return Buffer.from(encoded, 'base64').toString('utf8');
    },
    close: async () => {
      await stack.close();
      const exited = once(simulator.child, 'exit');
      simulator.child.kill('SIGTERM');
      await exited;
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
