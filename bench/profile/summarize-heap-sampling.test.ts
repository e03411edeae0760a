import { describe, expect, it } from 'vitest';
import { summarizeHeapSampling, type HeapSamplingNode } from './summarize-heap-sampling.js';

const node = (
  functionName: string,
  url: string,
  selfSize: number,
  children: HeapSamplingNode[] = [],
): HeapSamplingNode => ({ callFrame: { functionName, url, lineNumber: 9 }, selfSize, children });

describe('summarizeHeapSampling', () => {
  it('divides the sampled bytes by the calls, by area and by function, largest first', () => {
    const profile = {
      head: node('(root)', '', 0, [
        node('sendCommand', 'file:///x/node_modules/ioredis/built/Redis.js', 3_000, [
          node('Command', 'file:///x/node_modules/ioredis/built/Command.js', 5_000),
        ]),
        node('admit', 'file:///x/dist/gateway/pipeline/admission-hook.js', 1_500),
        node('emit', 'node:events', 500),
      ]),
    };
    const summary = summarizeHeapSampling(profile, 10);
    expect(summary.bytesPerCall).toBe(1_000);
    expect(summary.areas).toEqual([
      { name: 'ioredis', bytesPerCall: 800, share: 0.8 },
      { name: 'gateway/pipeline', bytesPerCall: 150, share: 0.15 },
      { name: 'node internals', bytesPerCall: 50, share: 0.05 },
    ]);
    expect(summary.functions[0]).toEqual({
      name: 'Command node_modules/ioredis/built/Command.js:10',
      bytesPerCall: 500,
      share: 0.5,
    });
    expect(summary.functions.map((one) => one.name)).toContain(
      'admit gateway/pipeline/admission-hook.js:10',
    );
  });
});
