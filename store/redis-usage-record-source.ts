/**
 * The record source over Redis Streams: one stream per account (the settlement script appends the
 * record JSON as the field `record`), one consumer group for all recorders, one consumer name per
 * recorder. Each stream is read, acknowledged and claimed on its own, so streams in different Redis
 * Cluster slots work. Acknowledged entries are deleted, so a stream's length is its backlog.
 */
import type { Redis, Cluster } from 'ioredis';
import type { RecordSource, SourceBacklog, SourceEntry } from './usage-record-source.js';

export const RECORD_FIELD = 'record';
export const DEFAULT_CONSUMER_GROUP = 'tollgate-recorder';

export interface RedisRecordSourceOptions {
  redis: Redis | Cluster;
  /** The stream keys to drain (the caller knows the per-account key names). */
  listStreams: () => Promise<readonly string[]>;
  consumer: string;
  group?: string;
}

type StreamEntries = [id: string, fields: string[] | null][];

function isNoGroup(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOGROUP');
}

/** XREADGROUP reply for one stream: [[stream, [[id, fields], ...]]] or null. */
function entriesOf(reply: unknown): StreamEntries {
  if (!Array.isArray(reply)) return [];
  const first: unknown = reply[0];
  if (!Array.isArray(first) || !Array.isArray(first[1])) return [];
  return first[1] as StreamEntries;
}

function recordBody(fields: string[] | null): string | null {
  if (fields === null) return null;
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === RECORD_FIELD) return fields[index + 1] ?? null;
  }
  return null;
}

export function createRedisRecordSource(options: RedisRecordSourceOptions): RecordSource {
  const { redis, consumer } = options;
  const group = options.group ?? DEFAULT_CONSUMER_GROUP;
  /** Streams with a group; `true` once this consumer's own pending entries were read back. */
  const prepared = new Map<string, boolean>();
  let rotation = 0;

  async function prepare(stream: string): Promise<void> {
    if (prepared.has(stream)) return;
    try {
      await redis.call('XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM');
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error;
    }
    prepared.set(stream, false);
  }

  /** Reads `from` ('0' = own pending, '>' = new); entries deleted meanwhile are acknowledged. */
  async function readStream(stream: string, from: string, count: number): Promise<SourceEntry[]> {
    let reply: unknown;
    try {
      const args = ['GROUP', group, consumer, 'COUNT', String(count), 'STREAMS', stream, from];
      reply = await redis.call('XREADGROUP', ...args);
    } catch (error) {
      // The stream or its group went away (Redis flushed or replaced): create it again next time.
      if (isNoGroup(error)) prepared.delete(stream);
      throw error;
    }
    return collect(stream, entriesOf(reply));
  }

  async function collect(stream: string, entries: StreamEntries): Promise<SourceEntry[]> {
    const found: SourceEntry[] = [];
    const gone: string[] = [];
    for (const [id, fields] of entries) {
      const body = recordBody(fields);
      if (fields === null) gone.push(id);
      else found.push({ source: stream, id, body: body ?? JSON.stringify(fields) });
    }
    if (gone.length > 0) await redis.call('XACK', stream, group, ...gone);
    return found;
  }

  async function streams(): Promise<string[]> {
    const listed = [...(await options.listStreams())];
    if (listed.length === 0) return listed;
    rotation = (rotation + 1) % listed.length;
    return [...listed.slice(rotation), ...listed.slice(0, rotation)];
  }

  return {
    async read(count) {
      const batch: SourceEntry[] = [];
      for (const stream of await streams()) {
        if (batch.length >= count) break;
        await prepare(stream);
        if (prepared.get(stream) === false) {
          // After a restart under the same name, this consumer's unacknowledged entries come first.
          batch.push(...(await readStream(stream, '0', count - batch.length)));
          if (batch.length >= count) break;
          prepared.set(stream, true);
        }
        batch.push(...(await readStream(stream, '>', count - batch.length)));
      }
      return batch;
    },

    async acknowledge(entries) {
      const byStream = new Map<string, string[]>();
      for (const entry of entries) {
        byStream.set(entry.source, [...(byStream.get(entry.source) ?? []), entry.id]);
      }
      for (const [stream, ids] of byStream) {
        await redis
          .multi()
          .xack(stream, group, ...ids)
          .xdel(stream, ...ids)
          .exec();
      }
    },

    async claimStale({ minIdleMs, count }) {
      const claimed: SourceEntry[] = [];
      for (const stream of await streams()) {
        if (claimed.length >= count) break;
        await prepare(stream);
        let cursor = '0-0';
        do {
          const reply = (await redis.call(
            'XAUTOCLAIM',
            stream,
            group,
            consumer,
            String(minIdleMs),
            cursor,
            'COUNT',
            String(count - claimed.length),
          )) as [string, StreamEntries, string[]?];
          cursor = reply[0];
          claimed.push(...(await collect(stream, reply[1])));
        } while (cursor !== '0-0' && claimed.length < count);
      }
      return claimed;
    },

    async backlog(): Promise<SourceBacklog> {
      let entries = 0;
      let oldestTime: number | null = null;
      for (const stream of await options.listStreams()) {
        const length = Number(await redis.call('XLEN', stream));
        if (length === 0) continue;
        entries += length;
        const first = (await redis.call('XRANGE', stream, '-', '+', 'COUNT', '1')) as StreamEntries;
        const appended = Number(first[0]?.[0].split('-')[0]);
        if (Number.isFinite(appended)) {
          oldestTime = oldestTime === null ? appended : Math.min(oldestTime, appended);
        }
      }
      return { entries, oldestTime };
    },
  };
}
