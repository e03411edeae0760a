import { describe, expect, it } from 'vitest';
import { selectGcTraceLines } from './select-gc-trace-lines.js';

const line = (isolate: string, ms: number, gc = 's') =>
  `[42:${isolate}]    ${String(ms)} ms: pause=1.5 mutator=300.0 gc=${gc} promoted=1000`;

describe('selectGcTraceLines', () => {
  it("keeps the main isolate's collections that fall in the window, on the monotonic clock", () => {
    const main = '0x2d012f10';
    const worker = '0x7ef31c000f00';
    const lines = [
      'tollgate local: listening',
      line(main, 900),
      line(main, 1500),
      line(worker, 1600),
      line(main, 2100, 'mc'),
      line(main, 3500),
    ];
    // The process started at 10 s; the window is 11.0 s to 12.5 s.
    const selected = selectGcTraceLines(lines, {
      spawnedUs: 10_000_000,
      fromUs: 11_000_000,
      toUs: 12_500_000,
    });
    expect(selected).toEqual([line(main, 1500), line(main, 2100, 'mc')]);
  });
});
