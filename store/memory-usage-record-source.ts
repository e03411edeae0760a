/**
 * The in-process record source (local mode without Redis): the settlement appends to it, the
 * recorder reads, writes and acknowledges exactly as with Redis Streams. Consumers are named so the
 * claim of a dead consumer's entries behaves the same; `snapshot`/`restore` let the memory store
 * persist unwritten entries with the rest of its state.
 */
import type { RecordSource, SourceBacklog, SourceEntry } from './usage-record-source.js';

interface QueuedEntry extends SourceEntry {
  /** `JSON.stringify` of `{ source, id, body }`, kept from the second `snapshotJson` that holds it. */
  json?: string;
  /** Whether a `snapshotJson` has held the entry. */
  snapshotted?: true;
  appendedAt: number;
  /** Consumer holding the entry and since when; null while it waits. */
  holder: { consumer: string; since: number } | null;
}

export class MemoryRecordQueue {
  private readonly entries = new Map<string, QueuedEntry>();
  private sequence = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Appends a record (the JSON body); returns its id. */
  append(source: string, body: string): string {
    const now = this.clock();
    this.sequence += 1;
    const id = `${now}-${this.sequence}`;
    this.entries.set(id, { source, id, body, appendedAt: now, holder: null });
    return id;
  }

  /** A consumer of this queue (the recorder's view). */
  consumer(name: string): RecordSource {
    return {
      read: (count) => Promise.resolve(this.read(name, count)),
      acknowledge: (acknowledged) => {
        for (const entry of acknowledged) this.entries.delete(entry.id);
        return Promise.resolve();
      },
      claimStale: (options) => Promise.resolve(this.claim(name, options)),
      backlog: () => Promise.resolve(this.backlog()),
    };
  }

  /** The unacknowledged entries, to persist; `restore` puts them back as waiting. */
  snapshot(): SourceEntry[] {
    return [...this.entries.values()].map(({ source, id, body }) => ({ source, id, body }));
  }

  /**
   * The unacknowledged entries as `snapshot` returns them, each in JSON. An entry is encoded at most
   * twice however many times it is persisted while it waits: its text is kept from the second
   * snapshot that holds it on (a recorder behind by thousands of records would otherwise have them
   * all encoded again at every write of the store). Not at the first: most entries are written to
   * the ledger before the next write of the store, and a text kept with each doubled what a waiting
   * record holds (about 1.5 kB more), which the young generation's collections copy and promote.
   */
  snapshotJson(): string[] {
    const texts: string[] = [];
    for (const entry of this.entries.values()) {
      if (entry.json !== undefined) {
        texts.push(entry.json);
        continue;
      }
      const json = JSON.stringify(plain(entry));
      if (entry.snapshotted === true) entry.json = json;
      else entry.snapshotted = true;
      texts.push(json);
    }
    return texts;
  }

  restore(entries: readonly SourceEntry[]): void {
    for (const entry of entries) {
      this.entries.set(entry.id, { ...entry, appendedAt: this.clock(), holder: null });
    }
  }

  private read(consumer: string, count: number): SourceEntry[] {
    const now = this.clock();
    const own: SourceEntry[] = [];
    const fresh: QueuedEntry[] = [];
    for (const entry of this.entries.values()) {
      if (entry.holder?.consumer === consumer) own.push(plain(entry));
      else if (entry.holder === null) fresh.push(entry);
    }
    if (own.length > 0) return own.slice(0, count);
    return fresh.slice(0, count).map((entry) => {
      entry.holder = { consumer, since: now };
      return plain(entry);
    });
  }

  private claim(consumer: string, options: { minIdleMs: number; count: number }): SourceEntry[] {
    const now = this.clock();
    const claimed: SourceEntry[] = [];
    for (const entry of this.entries.values()) {
      if (claimed.length >= options.count) break;
      const { holder } = entry;
      if (holder === null || holder.consumer === consumer) continue;
      if (now - holder.since < options.minIdleMs) continue;
      entry.holder = { consumer, since: now };
      claimed.push(plain(entry));
    }
    return claimed;
  }

  private backlog(): SourceBacklog {
    let oldestTime: number | null = null;
    for (const entry of this.entries.values()) {
      oldestTime = oldestTime === null ? entry.appendedAt : Math.min(oldestTime, entry.appendedAt);
    }
    return { entries: this.entries.size, oldestTime };
  }
}

function plain(entry: QueuedEntry): SourceEntry {
  return { source: entry.source, id: entry.id, body: entry.body };
}
