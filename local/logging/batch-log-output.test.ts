import { describe, expect, it } from 'vitest';
import { batchLogOutput } from './batch-log-output.js';

const pause = (ms: number): Promise<void> => new Promise((resume) => setTimeout(resume, ms));

function sink(): { writes: string[]; output: { write(text: string): void; isTTY: boolean } } {
  const writes: string[] = [];
  return { writes, output: { write: (text) => void writes.push(text), isTTY: true } };
}

describe('batchLogOutput', () => {
  it('writes the lines that came within its delay with one write, in order', async () => {
    const { writes, output } = sink();
    const batched = batchLogOutput(output, { maxDelayMs: 5, onExit: () => undefined });
    expect(batched.isTTY).toBe(true);
    batched.write('a\n');
    batched.write('b\n');
    batched.write('banner\n');
    expect(writes).toEqual([]);
    await pause(30);
    expect(writes).toEqual(['a\nb\nbanner\n']);
    batched.write('c\n');
    await pause(30);
    expect(writes).toEqual(['a\nb\nbanner\n', 'c\n']);
  });

  it('writes at once past its bound, and what is left on flush and at exit', async () => {
    const { writes, output } = sink();
    let atExit: () => void = () => undefined;
    const batched = batchLogOutput(output, {
      maxBuffered: 4,
      maxDelayMs: 5,
      onExit: (flush) => {
        atExit = flush;
      },
    });
    batched.write('ab');
    batched.write('cd');
    expect(writes).toEqual(['abcd']);
    batched.write('e');
    batched.flush();
    expect(writes).toEqual(['abcd', 'e']);
    batched.write('f');
    atExit();
    expect(writes).toEqual(['abcd', 'e', 'f']);
    await pause(30);
    expect(writes).toEqual(['abcd', 'e', 'f']);
  });
});
