/**
 * Test support: `tollgate local --port 0` as a real process on a data folder, its banner parsed,
 * real kubectl against it, keys created in the demo namespace and read back from their Secrets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKubectl } from '../control-plane/control-plane-harness.js';

const tollgate = fileURLToPath(new URL('../../../bin/tollgate.js', import.meta.url));

export interface LocalProcess {
  output(): string;
  gatewayUrl: string;
  kubeconfig: string;
  /** kubectl that must succeed; returns stdout. */
  kubectl(args: readonly string[], input?: string): Promise<string>;
  /** Creates an ApiKey in `namespace` for `group`; resolves with its value once it is usable. */
  createKey(options: { name: string; group: string; namespace?: string }): Promise<string>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

function line(output: string, label: string): string {
  const match = new RegExp(`^\\s+${label}:\\s+(\\S+)`, 'm').exec(output);
  if (match?.[1] === undefined) throw new Error(`banner has no ${label}:\n${output}`);
  return match[1];
}

/** The banner's last line: the console sign-in, after every start-up log line. */
const LAST_LINE = /console sign-in:.*\n/;

export async function startLocalProcess(
  dataDirectory: string,
  extraArgs: readonly string[] = [],
  environment: Readonly<Record<string, string>> = {},
): Promise<LocalProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [tollgate, 'local', '--port', '0', '--data', dataDirectory, ...extraArgs],
    {
      env: {
        ...process.env,
        TOLLGATE_LOG_LEVEL: 'warn',
        TOLLGATE_DEMO: '',
        TOLLGATE_LOG_FORMAT: '',
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const killer = setTimeout(() => child.kill('SIGKILL'), 170_000);
  const deadline = Date.now() + 60_000;
  while (!LAST_LINE.test(output) && Date.now() < deadline) {
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!LAST_LINE.test(output)) {
    child.kill('SIGKILL');
    clearTimeout(killer);
    throw new Error(`tollgate local did not start:\n${output}`);
  }
  const kubeconfig = line(output, 'kubeconfig');
  const cacheDirectory = join(dataDirectory, 'kubectl-cache');
  const kubectl = async (args: readonly string[], input?: string): Promise<string> => {
    const result = await runKubectl(kubeconfig, {
      args,
      cacheDirectory,
      ...(input === undefined ? {} : { input }),
    });
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const gatewayUrl = line(output, 'gateway');
  return {
    output: () => output,
    gatewayUrl,
    kubeconfig,
    kubectl,
    createKey: async ({ name, group, namespace = 'demo' }) => {
      await kubectl(
        ['apply', '-f', '-'],
        `apiVersion: tollgate.dev/v1alpha1\nkind: ApiKey\nmetadata: {name: ${name}, namespace: ${namespace}}\nspec: {groupName: ${group}}\n`,
      );
      const until = Date.now() + 20_000;
      for (;;) {
        const result = await runKubectl(kubeconfig, {
          args: ['get', 'secret', `${name}-key`, '-n', namespace, '-o', 'jsonpath={.data.apiKey}'],
          cacheDirectory,
        });
        if (result.code === 0 && result.stdout !== '') {
          const value = Buffer.from(result.stdout, 'base64').toString('utf8');
          // Usable once the gateway knows it: its usage answers 200.
          const usage = await fetch(`${gatewayUrl}/v1/usage`, {
            headers: { authorization: `Bearer ${value}` },
          });
          await usage.body?.cancel();
          if (usage.status === 200) return value;
        }
        if (Date.now() > until) throw new Error(`key ${name} never became usable`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
  };
}
