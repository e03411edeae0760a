import { describe, expect, it } from 'vitest';
import {
  createEmptyState,
  deserializeState,
  namespaceState,
  serializeState,
  serializeStateInSlices,
  type QueuedUsageEntry,
} from './memory-state.js';

function queueOf(count: number): QueuedUsageEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    source: 'team-a',
    id: `${String(1_000 + index)}-${String(index)}`,
    body: JSON.stringify({ requestId: `r-${String(index)}`, note: 'quotes " and \\ slashes' }),
  }));
}

describe('serializeStateInSlices', () => {
  it('writes the text serializeState writes, for a short queue and a long one', async () => {
    const state = createEmptyState();
    namespaceState(state, 'team-a').accountSpent = 42;
    for (const count of [0, 3, 250, 251, 1_234]) {
      const queue = queueOf(count);
      const text = await serializeStateInSlices(state, queue);
      expect(text).toBe(serializeState(state, queue));
      expect(deserializeState(text).queue).toEqual(queue);
    }
  });

  it('writes the state and the queue as they were when called', async () => {
    const state = createEmptyState();
    namespaceState(state, 'team-a').accountSpent = 1;
    const queue = queueOf(600);
    const expected = serializeState(state, queue);
    const pending = serializeStateInSlices(state, queue);
    namespaceState(state, 'team-a').accountSpent = 2;
    queue.length = 10;
    expect(await pending).toBe(expected);
  });
});
