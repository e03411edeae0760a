/**
 * The memory store's capture hand-off: a queue in insertion order bounded by count and by the
 * bytes of its captures' JSON (over either, the oldest are dropped first; the newest is always
 * kept), persisted in a file of its own (`snapshot`/`restore`, memory-store.ts).
 */
import type { CaptureHandOffResult, CapturedCall, PendingCapture } from './captured-call.js';
import { capturedCallJson, parseCapturedCall } from './captured-call.js';

/** A waiting capture as the captures file holds it. */
export interface QueuedCapture {
  id: string;
  body: string;
}

export interface CaptureQueueBounds {
  /** Captures kept at most. */
  limit: number;
  /** Bytes of capture JSON kept at most. */
  bytes: number;
}

export class MemoryCaptureQueue {
  private readonly entries = new Map<string, string>();
  private sequence = 0;
  /** The bytes (UTF-8) of the JSON the queue holds. */
  private bytes = 0;

  constructor(
    private readonly bounds: CaptureQueueBounds,
    private readonly clock: () => number = Date.now,
  ) {}

  append(call: CapturedCall): CaptureHandOffResult {
    this.sequence += 1;
    this.put(`${this.clock()}-${this.sequence}`, capturedCallJson(call));
    let dropped = 0;
    for (const id of this.entries.keys()) {
      if (this.entries.size <= 1 || !this.overBound()) break;
      this.remove(id);
      dropped += 1;
    }
    return { dropped };
  }

  pending(limit: number): PendingCapture[] {
    const captures: PendingCapture[] = [];
    for (const [id, body] of this.entries) {
      if (captures.length >= limit) break;
      const call = parseCapturedCall(body);
      if (call === null) this.remove(id);
      else captures.push({ id, call });
    }
    return captures;
  }

  acknowledge(ids: readonly string[]): void {
    for (const id of ids) this.remove(id);
  }

  snapshot(): QueuedCapture[] {
    return [...this.entries].map(([id, body]) => ({ id, body }));
  }

  restore(entries: readonly QueuedCapture[]): void {
    for (const { id, body } of entries) this.put(id, body);
    // Ids restored from the file stay unique: new ones count on from the highest sequence.
    for (const { id } of entries) {
      const sequence = Number(id.slice(id.indexOf('-') + 1));
      if (Number.isFinite(sequence)) this.sequence = Math.max(this.sequence, sequence);
    }
  }

  private overBound(): boolean {
    return this.entries.size > this.bounds.limit || this.bytes > this.bounds.bytes;
  }

  private put(id: string, body: string): void {
    this.remove(id);
    this.entries.set(id, body);
    this.bytes += Buffer.byteLength(body, 'utf8');
  }

  private remove(id: string): void {
    const body = this.entries.get(id);
    if (body === undefined) return;
    this.entries.delete(id);
    this.bytes -= Buffer.byteLength(body, 'utf8');
  }
}
