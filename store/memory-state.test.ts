import { describe, expect, it } from 'vitest';
import {
  createEmptyState,
  deserializeState,
  namespaceState,
  serializeState,
  serializeStateWithQueueJson,
  type QueuedUsageEntry,
} from './memory-state.js';
import { MemoryRecordQueue } from './memory-usage-record-source.js';

function queueOf(count: number): QueuedUsageEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    source: 'team-a',
    id: `${String(1_000 + index)}-${String(index)}`,
    body: JSON.stringify({ requestId: `r-${String(index)}`, note: 'quotes " and \\ slashes' }),
  }));
}

describe('serializeStateWithQueueJson', () => {
  it("writes serializeState's text from the queue's entries encoded once each", async () => {
    const state = createEmptyState();
    namespaceState(state, 'team-a').accountSpent = 7;
    const queue = new MemoryRecordQueue();
    expect(serializeStateWithQueueJson(state, queue.snapshotJson())).toBe(
      serializeState(state, queue.snapshot()),
    );
    queue.restore(queueOf(3));
    for (const entry of queueOf(300).slice(3)) queue.append(entry.source, entry.body);
    const first = queue.snapshotJson();
    expect(serializeStateWithQueueJson(state, first)).toBe(serializeState(state, queue.snapshot()));
    // Acknowledged entries leave; the others keep the text they were given.
    const consumer = queue.consumer('recorder');
    await consumer.acknowledge(await consumer.read(100));
    queue.append('team-b', '{"requestId":"late"}');
    const second = queue.snapshotJson();
    expect(second.length).toBe(201);
    expect(second[0]).toBe(first[100]);
    expect(serializeStateWithQueueJson(state, second)).toBe(
      serializeState(state, queue.snapshot()),
    );
    expect(deserializeState(serializeStateWithQueueJson(state, second)).queue).toEqual(
      queue.snapshot(),
    );
  });
});
