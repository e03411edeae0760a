/**
 * The capture hand-off on Redis: `handOffCapture` runs one script (appended and trimmed to both
 * bounds in one step, pipelined like the settlement), the recorder reads the stream oldest first
 * and deletes what it took (a script too: the deleted entries' bytes come off the sum).
 */
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import type { RunScript } from './define-store-scripts.js';
import type { RedisKeyNames } from './redis-key-names.js';
import type { CaptureStore } from './store.js';
import {
  CAPTURE_STREAM_FIELD,
  capturedCallJson,
  parseCapturedCall,
  type PendingCapture,
} from './captured-call.js';

export interface RedisCaptureStoreOptions {
  client: RedisClient;
  names: RedisKeyNames;
  runScript: RunScript;
  /** Captures kept waiting at most. */
  queueLimit: number;
  /** Bytes of capture JSON kept waiting at most (the newest capture is always kept). */
  queueBytes: number;
}

/** Ids deleted by one script call at most. */
const ACK_SLICE = 1_000;

function bodyOf(fields: readonly string[]): string | null {
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === CAPTURE_STREAM_FIELD) return fields[index + 1] ?? null;
  }
  return null;
}

export function createRedisCaptureStore(options: RedisCaptureStoreOptions): CaptureStore {
  const { client, names, runScript, queueLimit, queueBytes } = options;
  const stream = names.captureStream;
  const keys = [stream, names.captureBytes, names.captureSizes];
  // In slices: Lua's `unpack` takes a few thousand values at most.
  const deleteEntries = async (ids: readonly string[]) => {
    for (let start = 0; start < ids.length; start += ACK_SLICE) {
      await runScript('tollgateAckCaptures', keys, ids.slice(start, start + ACK_SLICE));
    }
  };
  return {
    handOffCapture: (call) =>
      guardRedis(async () => {
        const args = [CAPTURE_STREAM_FIELD, capturedCallJson(call), queueLimit, queueBytes];
        const dropped = await runScript('tollgateHandOffCapture', keys, args);
        return { dropped: Number(dropped) };
      }),
    pendingCaptures: (limit) =>
      guardRedis(async () => {
        const reply = await client.xrange(stream, '-', '+', 'COUNT', limit);
        const captures: PendingCapture[] = [];
        const unreadable: string[] = [];
        for (const [id, fields] of reply) {
          const body = bodyOf(fields);
          const call = body === null ? null : parseCapturedCall(body);
          if (call === null) unreadable.push(id);
          else captures.push({ id, call });
        }
        if (unreadable.length > 0) await deleteEntries(unreadable);
        return captures;
      }),
    ackCaptures: (ids) =>
      guardRedis(async () => {
        if (ids.length === 0) return;
        await deleteEntries(ids);
      }),
  };
}
