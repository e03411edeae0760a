import { describe, expect, it } from 'vitest';
import { classifyFrame, summarizeCpuProfile, type CpuProfile } from './summarize-cpu-profile.js';

const frame = (id: number, functionName: string, url: string, hitCount: number) => ({
  id,
  callFrame: { functionName, url, lineNumber: 9 },
  hitCount,
});

describe('classifyFrame', () => {
  it('names packages, gateway folders, Node internals and V8 pseudo-frames', () => {
    expect(classifyFrame('file:///w/node_modules/undici/lib/core/request.js', 'x')).toBe('undici');
    expect(classifyFrame('file:///w/node_modules/@fastify/ajv/index.js', 'x')).toBe('@fastify/ajv');
    expect(classifyFrame('file:///w/gateway/pipeline/admit-request.ts', 'admit')).toBe(
      'gateway/pipeline',
    );
    expect(classifyFrame('file:///w/gateway/app.ts', 'build')).toBe('gateway');
    expect(classifyFrame('file:///w/gateway/stages/reply/relay-metered-reply.ts', 'onData')).toBe(
      'gateway/stages/reply',
    );
    expect(classifyFrame('node:net', 'connect')).toBe('node internals');
    expect(classifyFrame('', '(garbage collector)')).toBe('(garbage collector)');
    expect(classifyFrame('', '(idle)')).toBe('(idle)');
    expect(classifyFrame('', 'writev')).toBe('(program / native)');
  });
});

describe('summarizeCpuProfile', () => {
  it('spreads the sampled time over hits and leaves idle out of the busy shares', () => {
    const profile: CpuProfile = {
      startTime: 0,
      endTime: 1_000_000,
      nodes: [
        frame(1, '(root)', '', 0),
        frame(2, '(idle)', '', 50),
        frame(3, 'admit', 'file:///w/gateway/pipeline/admit-request.ts', 30),
        frame(4, 'request', 'file:///w/node_modules/undici/lib/api/api-request.js', 15),
        frame(5, 'admit', 'file:///w/gateway/pipeline/admit-request.ts', 5),
      ],
    };
    const summary = summarizeCpuProfile(profile);
    expect(summary.totalMs).toBe(1000);
    expect(summary.busyMs).toBe(500);
    expect(summary.areas).toEqual([
      { name: 'gateway/pipeline', ms: 350, share: 0.7 },
      { name: 'undici', ms: 150, share: 0.3 },
    ]);
    expect(summary.functions[0]).toEqual({
      name: 'admit gateway/pipeline/admit-request.ts:10',
      ms: 350,
      share: 0.7,
    });
  });
});
