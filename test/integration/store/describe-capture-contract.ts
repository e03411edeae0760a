/**
 * Contract: captured bodies handed off wait in one queue, oldest first, until acknowledged; the
 * queue keeps within its bound by dropping the oldest and says how many it dropped.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CapturedCall } from '../../../store/captured-call.js';
import type { Store } from '../../../store/store.js';
import type { StoreHolder } from './store-under-test.js';

export function capturedCall(overrides: Partial<CapturedCall> = {}): CapturedCall {
  const at = Date.now();
  return {
    requestId: randomUUID(),
    namespace: 'team-capture',
    keyName: 'agent',
    keyUid: randomUUID(),
    group: 'claude',
    platform: 'Anthropic',
    path: '/v1/messages',
    model: 'claude-sonnet-4-5',
    streamed: true,
    at,
    expiresAt: at + 7 * 86_400_000,
    request: {
      text: '{"messages":[{"role":"user","content":"key [REDACTED:anthropic-key] \\u00e9 ✓"}]}',
      bytes: 80,
      truncated: false,
      contentType: 'application/json',
      redactions: [{ kind: 'anthropic-key', count: 1 }],
    },
    response: null,
    ...overrides,
  };
}

/** Takes every waiting capture out of the queue (tests of one suite share the store). */
async function drain(store: Store): Promise<void> {
  for (;;) {
    const pending = await store.pendingCaptures(500);
    if (pending.length === 0) return;
    await store.ackCaptures(pending.map((capture) => capture.id));
  }
}

export function describeCaptureContract(holder: StoreHolder): void {
  describe('capture hand-off', () => {
    it('keeps handed-off captures oldest first until they are acknowledged', async () => {
      const { store } = holder;
      await drain(store);
      const calls = [
        capturedCall(),
        capturedCall({ request: null, response: capturedCall().request, streamed: false }),
        capturedCall({ model: null, path: '/v1beta/models/gemini-2.5-pro:generateContent' }),
      ];
      for (const call of calls) expect(await store.handOffCapture(call)).toEqual({ dropped: 0 });
      const pending = await store.pendingCaptures(10);
      expect(pending.map((capture) => capture.call)).toEqual(calls);
      expect(new Set(pending.map((capture) => capture.id)).size).toBe(3);
      expect(await store.pendingCaptures(2)).toEqual(pending.slice(0, 2));
      // Read again without an acknowledgement: still there (at least once).
      expect(await store.pendingCaptures(10)).toEqual(pending);
      await store.ackCaptures([pending[0]!.id, pending[2]!.id]);
      expect(await store.pendingCaptures(10)).toEqual([pending[1]]);
      await store.ackCaptures([pending[1]!.id, pending[1]!.id]);
      await store.ackCaptures([]);
      expect(await store.pendingCaptures(10)).toEqual([]);
    });
  });
}

/** A capture whose JSON takes exactly `bytes` bytes (its request text fills it out). */
function capturedCallOfSize(bytes: number): CapturedCall {
  const call = capturedCall({ response: null });
  const base = Buffer.byteLength(
    JSON.stringify({ ...call, request: { ...call.request!, text: '' } }),
  );
  return { ...call, request: { ...call.request!, text: 'x'.repeat(bytes - base) } };
}

/** The bounds, on a store made with small ones (the contract store keeps the defaults). */
export function describeCaptureBound(
  name: string,
  makeStore: (bounds: { queueLimit: number; queueBytes?: number }) => Promise<Store>,
): void {
  describe(`capture hand-off bound: ${name}`, () => {
    it('drops the oldest captures over the count bound, counted, never refusing a hand-off', async () => {
      const limit = 5;
      const store = await makeStore({ queueLimit: limit });
      const total = 12;
      const calls = Array.from({ length: total }, () => capturedCall());
      let dropped = 0;
      for (const call of calls) dropped += (await store.handOffCapture(call)).dropped;
      const pending = await store.pendingCaptures(total);
      // What is left is the newest captures, in order, and every other one was counted as dropped.
      expect(pending.map((capture) => capture.call)).toEqual(calls.slice(total - limit));
      expect(dropped).toBe(total - limit);
      await store.close();
    });

    it('drops the oldest captures over the byte bound; acknowledged ones free their bytes', async () => {
      const size = 2_000;
      // Room for three captures, not four.
      const store = await makeStore({ queueLimit: 1_000, queueBytes: 3 * size + size / 2 });
      const calls = Array.from({ length: 10 }, () => capturedCallOfSize(size));
      expect(Buffer.byteLength(JSON.stringify(calls[0]))).toBe(size);
      const results = [];
      for (const call of calls) results.push((await store.handOffCapture(call)).dropped);
      expect(results).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 1, 1]);
      const pending = await store.pendingCaptures(100);
      expect(pending.map((capture) => capture.call)).toEqual(calls.slice(7));
      // Acknowledged, their bytes leave the count: three fit again without a drop.
      await store.ackCaptures(pending.map((capture) => capture.id));
      const next = Array.from({ length: 3 }, () => capturedCallOfSize(size));
      for (const call of next) expect(await store.handOffCapture(call)).toEqual({ dropped: 0 });
      // One capture larger than the bound is kept alone (the newest is never dropped).
      const large = capturedCallOfSize(5 * size);
      expect(await store.handOffCapture(large)).toEqual({ dropped: 3 });
      expect((await store.pendingCaptures(100)).map((capture) => capture.call)).toEqual([large]);
      // And the next one takes its place.
      const after = capturedCallOfSize(size);
      expect(await store.handOffCapture(after)).toEqual({ dropped: 1 });
      expect((await store.pendingCaptures(100)).map((capture) => capture.call)).toEqual([after]);
      await store.close();
    });
  });
}
