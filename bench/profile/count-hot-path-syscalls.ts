/**
 * `npx tsx bench/profile/count-hot-path-syscalls.ts [B|D] [non-streamed|streamed] [seconds]`: the
 * side-by-side layout's bare pass-through (B) or Tollgate (D), driven in a closed loop of 64 callers
 * while `strace -c -f` counts the target process's system calls. Prints system calls per answered
 * call by name: a measure that does not depend on how busy the machine is.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { driveChatCompletions, readChatKindName } from '../support/drive-chat-completions.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { startSideBySideLayout } from '../support/start-side-by-side-layout.js';

const scenario = process.argv[2] === 'B' ? 'B' : 'D';
const kindName = readChatKindName(process.argv[3], 'non-streamed');
const seconds = Number(process.argv[4] ?? 5);

/** `strace -c` summary lines: `% time seconds usecs/call calls [errors] syscall`. */
function parseStraceSummary(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    const name = fields.at(-1);
    if (fields.length < 5 || name === undefined || !/^[a-z_0-9]+$/.test(name)) continue;
    const calls = Number(fields[3]);
    if (Number.isFinite(calls) && name !== 'total') counts.set(name, calls);
  }
  return counts;
}

async function main(): Promise<void> {
  const layout = await startSideBySideLayout();
  const started = await startBenchTarget(
    { id: `${scenario}1`, scenario, label: scenario, workers: 1, hold: false, crossCheck: false },
    layout.environment,
  );
  const drive = driveChatCompletions(layout, started, kindName);
  try {
    await drive.closed(64, 3_000);
    const strace = spawn('strace', ['-c', '-f', '-p', String(started.pid)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    strace.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answered = await drive.closed(64, seconds * 1000);
    strace.kill('SIGINT');
    await once(strace, 'exit');
    const counts = [...parseStraceSummary(output)].sort((a, b) => b[1] - a[1]);
    const total = counts.reduce((sum, [, calls]) => sum + calls, 0);
    process.stdout.write(
      `${scenario} ${kindName}: ${answered} calls, ${(total / answered).toFixed(2)} syscalls/call\n`,
    );
    for (const [name, calls] of counts.slice(0, 15))
      process.stdout.write(`  ${name} ${(calls / answered).toFixed(3)}\n`);
  } finally {
    await started.stop();
    await layout.stop();
  }
}

await main();
