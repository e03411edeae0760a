/**
 * Rebuilds the one message a streamed reply carried from its events (captured bodies,
 * docs/captures.md): fed each event's parsed payload in order, it answers the message the same
 * API gives without streaming (null when nothing was fed). One per wire format, in its protocol
 * folder, picked through `protocols/registry.ts` (`REPLY_REASSEMBLERS`).
 */
import type { UpstreamWireFormat } from './protocol-adapter.js';

export interface ReplyReassembler {
  feed(payload: unknown): void;
  result(): object | null;
}

export type ReplyReassemblers = Readonly<Record<UpstreamWireFormat, () => ReplyReassembler>>;

/** A payload's object fields; null for anything that is not an object. */
export function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
