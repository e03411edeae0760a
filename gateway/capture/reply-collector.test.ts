import { describe, expect, it } from 'vitest';
import { CaptureReplyBudget } from './capture-reply-budget.js';
import { ReplyCollector } from './reply-collector.js';

const chunk = (bytes: number) => Buffer.alloc(bytes, 'x');

describe('ReplyCollector', () => {
  it('keeps chunks up to its own limit, then marks the reply overflowed', () => {
    const budget = new CaptureReplyBudget(1_000);
    const collector = new ReplyCollector('anthropic-messages', 100, budget);
    collector.add(chunk(60));
    collector.add(chunk(60));
    collector.add(chunk(40));
    expect(collector.bytes).toBe(100);
    expect(collector.chunks.map((kept) => kept.length)).toEqual([60, 40]);
    expect(collector.overflowed).toBe(true);
    expect(budget.usedBytes).toBe(100);
  });

  it('shares the process-wide budget: past it a reply is truncated, its release makes room', () => {
    const budget = new CaptureReplyBudget(150);
    const first = new ReplyCollector('openai-chat', 1_000, budget);
    const second = new ReplyCollector('openai-chat', 1_000, budget);
    first.add(chunk(100));
    second.add(chunk(40));
    second.add(chunk(40));
    expect(first.overflowed).toBe(false);
    expect(second.bytes).toBe(40);
    expect(second.overflowed).toBe(true);
    expect(budget.usedBytes).toBe(140);

    first.release();
    first.release();
    expect(budget.usedBytes).toBe(40);
    // Nothing is kept after the release (the request's end has read it).
    first.add(chunk(10));
    expect(first.bytes).toBe(100);
    expect(budget.usedBytes).toBe(40);

    const third = new ReplyCollector('openai-chat', 1_000, budget);
    third.add(chunk(110));
    expect(third.overflowed).toBe(false);
    expect(budget.usedBytes).toBe(150);
    second.release();
    third.release();
    expect(budget.usedBytes).toBe(0);
  });
});
