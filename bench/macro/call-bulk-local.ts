/**
 * What the bulk-key benchmarks send to their `tollgate local`: `kubectl` against its kubeconfig
 * (optionally timed by GNU time) and one chat completion with a key, answered as 'ok' or the
 * gateway's error code.
 */
import { execFile } from 'node:child_process';

export const TIME = '/usr/bin/time';

export function kubectl(
  kubeconfig: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number; cpuFile?: string } = {},
): Promise<string> {
  const command = ['kubectl', '--kubeconfig', kubeconfig, ...args];
  // With `cpuFile`, GNU time writes kubectl's own user and system CPU seconds there.
  if (options.cpuFile !== undefined) command.unshift(TIME, '-f', '%U %S', '-o', options.cpuFile);
  return new Promise((resolve, reject) => {
    const child = execFile(
      command[0] ?? 'kubectl',
      command.slice(1),
      { timeout: options.timeoutMs ?? 30_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`kubectl ${args.join(' ')}: ${stderr || error.message}`));
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** One chat completion with the key: the gateway's error code, or 'ok' for a 200. */
export async function probe(gatewayUrl: string, key: string): Promise<string> {
  const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });
  const text = await response.text();
  if (response.status === 200) return 'ok';
  return /"(TG_[A-Z_]+)"/.exec(text)?.[1] ?? `HTTP ${response.status}`;
}
