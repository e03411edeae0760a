/**
 * The store's script runner on a private Redis: EVALSHA as one plain command per call, EVAL when
 * the server has not seen the script, and calls made in the same turn of the event loop leaving in
 * one socket write.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineStoreScripts, type RunScript } from '../../../store/define-store-scripts.js';
import type { RedisServer } from '../../support/redis-server.js';
import { startRedisServer } from '../../support/redis-server.js';

async function commandCalls(observer: Redis, name: string): Promise<number> {
  const info = await observer.info('commandstats');
  return Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
}

describe('store script runner', () => {
  let server: RedisServer;
  let client: Redis;
  let observer: Redis;
  let runScript: RunScript;

  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis(server.url, { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
    observer = new Redis(server.url);
    runScript = defineStoreScripts(client);
    await client.ping();
  });
  afterAll(async () => {
    client.disconnect();
    observer.disconnect();
    await server.stop();
  });

  it('falls back to EVAL once when the server does not know the script, then uses EVALSHA', async () => {
    await observer.script('FLUSH');
    await observer.config('RESETSTAT');
    await observer.xadd('usage-stream', '1-1', 'record', '{}');
    expect(await runScript('tollgateUsageStreamPosition', ['usage-stream'], [])).toEqual([
      1,
      '1-1',
    ]);
    expect(await runScript('tollgateUsageStreamPosition', ['usage-stream'], [])).toEqual([
      1,
      '1-1',
    ]);
    expect(await commandCalls(observer, 'eval')).toBe(1);
    // The first EVALSHA was answered NOSCRIPT (counted as a failed call), the second ran.
    expect(await commandCalls(observer, 'evalsha')).toBe(2);
  });

  it('holds the calls of one turn in the socket and writes them together on the next', async () => {
    const stream = client.stream;
    const calls = [1, 2, 3].map(() => runScript('tollgateUsageStreamPosition', ['other'], []));
    expect(stream.writableCorked).toBe(1);
    expect(stream.writableLength).toBeGreaterThan(0);
    expect(await Promise.all(calls)).toEqual([
      [0, '0-0'],
      [0, '0-0'],
      [0, '0-0'],
    ]);
    expect(stream.writableCorked).toBe(0);
    expect(stream.writableLength).toBe(0);
  });

  it('refuses a call with the wrong number of keys without sending it', async () => {
    await expect(runScript('tollgateUsageStreamPosition', ['a', 'b'], [])).rejects.toThrow(
      'tollgateUsageStreamPosition: wrong key count',
    );
  });
});
