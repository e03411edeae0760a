/**
 * `tollgate operator` and `tollgate console` started with neither --kubeconfig nor a pod's service
 * environment exit at once with a sentence that says what is missing, instead of retrying
 * https://undefined:undefined until a timeout.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

async function runWithoutCluster(
  args: readonly string[],
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['bin/tollgate.js', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    // No KUBERNETES_SERVICE_HOST: not in a pod.
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}

it('the operator refuses to start without a cluster', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-no-cluster-'));
  for (const name of ['pepper', 'credential-key']) {
    writeFileSync(join(folder, name), Buffer.alloc(32, 7).toString('base64'));
  }
  const { code, output } = await runWithoutCluster([
    'operator',
    '--pepper-file',
    join(folder, 'pepper'),
    '--credential-key-file',
    join(folder, 'credential-key'),
  ]);
  expect(code).toBe(1);
  expect(output).toContain('the operator needs a cluster: pass --kubeconfig, or run it in a pod');
}, 30_000);

it('the console refuses to start without a cluster', async () => {
  const { code, output } = await runWithoutCluster([
    'console',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--gateway-url',
    'http://127.0.0.1:1',
  ]);
  expect(code).toBe(1);
  expect(output).toContain('the console needs a cluster: pass --kubeconfig, or run it in a pod');
}, 30_000);
