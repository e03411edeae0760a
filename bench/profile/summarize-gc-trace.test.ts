import { describe, expect, it } from 'vitest';
import { summarizeGcTrace } from './summarize-gc-trace.js';

const scavenge = (atMs: number, pause: number, promoted: number, survived: number): string =>
  `[1:0x1]    ${atMs} ms: pause=${pause} mutator=900.1 gc=s reduce_memory=0 scavenge=1.75 ` +
  `total_size_before=64119824 allocated=13389208 promoted=${promoted} ` +
  `new_space_survived=${survived} promotion_ratio=0.3% new_space_allocation_throughput=14296.8`;

describe('summarizeGcTrace', () => {
  it('gives scavenges, their interval and pause, and bytes promoted and survived per call', () => {
    const lines = [
      '{"level":30,"msg":"request completed"}',
      scavenge(1000, 2, 40_960, 102_400),
      scavenge(2000, 4, 61_440, 0),
      '[1:0x1]    2500 ms: pause=30.5 mutator=400 gc=mc reduce_memory=0 promoted=0',
    ];
    expect(summarizeGcTrace(lines, 100)).toEqual({
      scavenges: 2,
      scavengeIntervalMs: 1000,
      scavengePauseMs: { mean: 3, max: 4, total: 6 },
      promotedKbPerScavenge: 50,
      survivedKbPerScavenge: 50,
      perCall: {
        promotedBytes: 1024,
        survivedBytes: 1024,
        scavengePauseUs: 60,
        markCompactPauseUs: 305,
      },
      markCompacts: 1,
      markCompactPauseMs: 30.5,
    });
  });

  it('has no per-call figures without calls and no interval with one scavenge', () => {
    const summary = summarizeGcTrace([scavenge(10, 1, 0, 0)], 0);
    expect(summary.perCall).toBeNull();
    expect(summary.scavengeIntervalMs).toBeNull();
  });
});
