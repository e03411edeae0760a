/**
 * The memory store's capture hand-off: a bounded queue in insertion order (oldest dropped first
 * over the bound), persisted with the store's state (`snapshot`/`restore`).
 */
import type { CaptureHandOffResult, CapturedCall, PendingCapture } from './captured-call.js';
import { capturedCallJson, parseCapturedCall } from './captured-call.js';

/** A waiting capture as the state file holds it. */
export interface QueuedCapture {
  id: string;
  body: string;
}

export class MemoryCaptureQueue {
  private readonly entries = new Map<string, string>();
  private sequence = 0;

  constructor(
    private readonly limit: number,
    private readonly clock: () => number = Date.now,
  ) {}

  append(call: CapturedCall): CaptureHandOffResult {
    this.sequence += 1;
    this.entries.set(`${this.clock()}-${this.sequence}`, capturedCallJson(call));
    let dropped = 0;
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(id);
      dropped += 1;
    }
    return { dropped };
  }

  pending(limit: number): PendingCapture[] {
    const captures: PendingCapture[] = [];
    for (const [id, body] of this.entries) {
      if (captures.length >= limit) break;
      const call = parseCapturedCall(body);
      if (call === null) this.entries.delete(id);
      else captures.push({ id, call });
    }
    return captures;
  }

  acknowledge(ids: readonly string[]): void {
    for (const id of ids) this.entries.delete(id);
  }

  snapshot(): QueuedCapture[] {
    return [...this.entries].map(([id, body]) => ({ id, body }));
  }

  restore(entries: readonly QueuedCapture[]): void {
    for (const { id, body } of entries) this.entries.set(id, body);
    // Ids restored from the file stay unique: new ones count on from the highest sequence.
    for (const { id } of entries) {
      const sequence = Number(id.slice(id.indexOf('-') + 1));
      if (Number.isFinite(sequence)) this.sequence = Math.max(this.sequence, sequence);
    }
  }
}
