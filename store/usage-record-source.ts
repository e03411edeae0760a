/**
 * Where the recorder reads settled usage records from: the per-account Redis Streams the settlement
 * script appends to (cluster mode, or local mode with Redis), or an in-process queue (local mode
 * without Redis). Entries stay in the source until acknowledged, which the recorder does only after
 * the ledger committed them, so a recorder that dies loses nothing: its entries are claimed later.
 */
export interface SourceEntry {
  /** The stream (or queue) the entry came from. */
  source: string;
  /** The entry's id within its source. */
  id: string;
  /** The record as JSON (one field per entry). */
  body: string;
}

export interface SourceBacklog {
  /** Entries not yet acknowledged (waiting or being written). */
  entries: number;
  /** Epoch ms when the oldest of them was appended; null when there are none. */
  oldestTime: number | null;
}

export interface RecordSource {
  /** Up to `count` entries: first this consumer's own unacknowledged ones, then new ones. */
  read(count: number): Promise<SourceEntry[]>;
  /** Marks entries as written; they leave the source. */
  acknowledge(entries: readonly SourceEntry[]): Promise<void>;
  /** Takes over up to `count` entries another consumer read but left unacknowledged `minIdleMs`. */
  claimStale(options: { minIdleMs: number; count: number }): Promise<SourceEntry[]>;
  backlog(): Promise<SourceBacklog>;
}
