import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const moduleUrl = new URL('./lower-process-priority.ts', import.meta.url).href;

/**
 * In a child process (the test runner keeps its priority): the niceness of every thread before,
 * the function's answer, and every thread's niceness after, including a worker thread started
 * afterwards.
 */
async function lowerInChild(niceness: number): Promise<{
  before: number[];
  lowered: { threads: number; unchanged: number };
  after: number[];
  worker: number;
}> {
  const script = `
    import { readdirSync } from 'node:fs';
    import { getPriority } from 'node:os';
    import { Worker } from 'node:worker_threads';
    const { lowerProcessPriority } = await import(${JSON.stringify(moduleUrl)});
    const all = () => readdirSync('/proc/self/task').map((id) => getPriority(Number(id)));
    const before = all();
    const lowered = lowerProcessPriority(${niceness});
    const after = all();
    const worker = await new Promise((resolve, reject) => {
      const thread = new Worker(
        "const { parentPort } = require('node:worker_threads');" +
          "const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());" +
          "parentPort.postMessage(require('node:os').getPriority(tid));",
        { eval: true, execArgv: [] },
      );
      thread.once('message', (value) => { resolve(value); thread.terminate(); });
      thread.once('error', reject);
    });
    process.stdout.write(JSON.stringify({ before, lowered, after, worker }));
  `;
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
  );
  return JSON.parse(stdout) as Awaited<ReturnType<typeof lowerInChild>>;
}

describe.runIf(process.platform === 'linux')('lowerProcessPriority', () => {
  it('raises the niceness of every thread by the amount, and threads started later inherit it', async () => {
    const child = await lowerInChild(7);
    expect(child.before.length).toBeGreaterThan(1);
    const expected = child.before.map((one) => Math.min(19, one + 7));
    expect(child.after).toEqual(expected);
    expect(child.worker).toBe(expected[0]);
    if (Math.max(...child.before) < 19) expect(child.lowered.threads).toBe(child.before.length);
  });

  it('leaves every thread as it was at 0', async () => {
    const off = await lowerInChild(0);
    expect(off.after).toEqual(off.before);
    expect(off.lowered).toEqual({ threads: 0, unchanged: 0 });
  });
});
