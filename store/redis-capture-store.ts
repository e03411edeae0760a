/**
 * The capture hand-off on Redis: `handOffCapture` runs one script (appended and trimmed in one
 * step, pipelined like the settlement), the recorder reads the stream oldest first and deletes
 * what it took.
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
  /** Captures kept waiting at most (about: the trim removes whole stream nodes). */
  queueLimit: number;
}

function bodyOf(fields: readonly string[]): string | null {
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === CAPTURE_STREAM_FIELD) return fields[index + 1] ?? null;
  }
  return null;
}

export function createRedisCaptureStore(options: RedisCaptureStoreOptions): CaptureStore {
  const { client, names, runScript, queueLimit } = options;
  const stream = names.captureStream;
  return {
    handOffCapture: (call) =>
      guardRedis(async () => {
        const args = [CAPTURE_STREAM_FIELD, capturedCallJson(call), queueLimit];
        const dropped = await runScript('tollgateHandOffCapture', [stream], args);
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
        if (unreadable.length > 0) await client.xdel(stream, ...unreadable);
        return captures;
      }),
    ackCaptures: (ids) =>
      guardRedis(async () => {
        if (ids.length === 0) return;
        await client.xdel(stream, ...ids);
      }),
  };
}
