/**
 * `npm start` holds flat memory under any traffic: the simulator runs inside local mode's own
 * process, so it must keep nothing of the calls it answered. 200 calls with a 1 MB prompt, then
 * the heap after a full collection is back near where it was before them (a child process run with
 * `--expose-gc`: measure-simulator-heap.ts).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Room for what the runtime itself grows by (code, pools); every call kept costs 1 to 2 MB. */
const ALLOWED_GROWTH_MB = 16;

describe('the in-process simulator under large calls', () => {
  it('returns to its baseline heap after 200 calls with a 1 MB prompt', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'test/integration/local-stack/measure-simulator-heap.ts',
        '200',
        String(1_000_000),
      ],
      { cwd: process.cwd(), maxBuffer: 1024 * 1024 },
    );
    const figures = JSON.parse(stdout) as { baselineMb: number; afterMb: number };
    expect(figures.afterMb - figures.baselineMb, JSON.stringify(figures)).toBeLessThan(
      ALLOWED_GROWTH_MB,
    );
  }, 60_000);
});
