/**
 * The retained window of change events and the open watches. A watch that starts from a
 * resourceVersion older than the window gets `410 Gone` (as after an etcd compaction).
 */
import type { KubeObject } from './kube-object.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeEvent {
  type: EventType;
  /** `<group>/<plural>`: which collection the object belongs to. */
  collection: string;
  object: KubeObject;
  resourceVersion: number;
  /** `JSON.stringify(object)`, once for the journal and every watch. */
  json?: string;
  /** The watch line `{type, object}`, encoded by the first watch that sends it, for the others. */
  line?: string;
}

export type Listener = (event: ChangeEvent) => void;

export class WatchHub {
  private readonly events: ChangeEvent[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly size: number;
  /** Events after this resourceVersion are all retained. */
  private windowStart: number;

  constructor(options: { size: number; startVersion: number }) {
    this.size = options.size;
    this.windowStart = options.startVersion;
  }

  publish(event: ChangeEvent): void {
    this.events.push(event);
    while (this.events.length > this.size) {
      const dropped = this.events.shift();
      if (dropped !== undefined) this.windowStart = dropped.resourceVersion;
    }
    for (const listener of this.listeners) listener(event);
  }

  /** The retained events after `version`, or undefined when that version is too old. */
  since(version: number): ChangeEvent[] | undefined {
    if (version < this.windowStart) return undefined;
    return this.events.filter((event) => event.resourceVersion > version);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
