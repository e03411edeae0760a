/**
 * The store's script runner on a private Redis: FCALL of the store's function library as one plain
 * command per call, the library loaded when the server does not have it, EVALSHA (and EVAL when
 * the server has not seen the script) on a server without functions, calls made in the same turn
 * of the event loop leaving in one socket write, and a settlement waiting in the socket for the
 * next call that is waited for.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defineStoreScripts,
  STORE_FUNCTION_LIBRARY,
  type RunScript,
} from '../../../store/define-store-scripts.js';
import type { RedisServer } from '../../support/redis-server.js';
import { startRedisServer } from '../../support/redis-server.js';

/** Reads where `usage-stream` stands `times` over; each read must find its one entry. */
async function readStreamPosition(run: RunScript, times: number): Promise<void> {
  for (let call = 0; call < times; call++) {
    expect(await run('tollgateUsageStreamPosition', ['usage-stream'], [])).toEqual([1, '1-1']);
  }
}

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

  it('loads the function library once when the server does not have it, then calls by FCALL', async () => {
    await observer.call('FUNCTION', 'FLUSH');
    await observer.config('RESETSTAT');
    await observer.xadd('usage-stream', '1-1', 'record', '{}');
    const [first, second] = await Promise.all(
      [1, 2].map(() => runScript('tollgateUsageStreamPosition', ['usage-stream'], [])),
    );
    expect(first).toEqual([1, '1-1']);
    expect(second).toEqual([1, '1-1']);
    await readStreamPosition(runScript, 1);
    // Two calls found no function (counted as failed calls), shared one load, ran again; the
    // third ran at once.
    expect(await commandCalls(observer, 'function\\|load')).toBe(1);
    expect(await commandCalls(observer, 'fcall')).toBe(5);
    expect(await commandCalls(observer, 'evalsha')).toBe(0);
    const libraries = (await observer.call('FUNCTION', 'LIST')) as unknown[][];
    const names = libraries.map((library) => library[library.indexOf('library_name') + 1]);
    expect(names).toEqual([STORE_FUNCTION_LIBRARY.name]);
  });

  it('turns to EVALSHA, with EVAL when the server does not know the script, on a Redis without FCALL', async () => {
    // As a Redis before 7 answers: FCALL is an unknown command.
    const old = await startRedisServer({ extraArgs: ['--rename-command', 'FCALL', ''] });
    const oldClient = new Redis(old.url);
    const oldObserver = new Redis(old.url);
    try {
      await oldObserver.xadd('usage-stream', '1-1', 'record', '{}');
      await readStreamPosition(defineStoreScripts(oldClient), 3);
      // The first EVALSHA was answered NOSCRIPT (counted as a failed call); FCALL was tried once.
      expect(await commandCalls(oldObserver, 'eval')).toBe(1);
      expect(await commandCalls(oldObserver, 'evalsha')).toBe(3);
      expect(await oldObserver.call('FUNCTION', 'LIST')).toEqual([]);
    } finally {
      oldClient.disconnect();
      oldObserver.disconnect();
      await old.stop();
    }
  });

  it('turns to EVALSHA when an ACL does not allow the library to be loaded', async () => {
    await observer.call(
      'ACL',
      'SETUSER',
      'scripts-only',
      'on',
      'nopass',
      '~*',
      '&*',
      '+@all',
      '-function',
    );
    const limited = new Redis(server.url, { username: 'scripts-only', password: 'any' });
    try {
      await observer.call('FUNCTION', 'FLUSH');
      await observer.config('RESETSTAT');
      await readStreamPosition(defineStoreScripts(limited), 2);
      expect(await commandCalls(observer, 'fcall')).toBe(1);
      expect(await commandCalls(observer, 'evalsha')).toBe(2);
      expect(await observer.call('FUNCTION', 'LIST')).toEqual([]);
    } finally {
      limited.disconnect();
      await observer.call('ACL', 'DELUSER', 'scripts-only');
    }
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

  const settle = (requestId: string): Promise<unknown> =>
    runScript(
      'tollgateSettle',
      [
        'tg:t:kc:k1',
        'tg:t:ac',
        'tg:t:inflight',
        'tg:t:inflight:data',
        `tg:t:settled:${requestId}`,
        'tg:t:inflight:charge',
        'tg:t:session:',
      ],
      ['tg:t:', requestId, '100', Date.now(), 60_000, '{"requestId":"r"}', 'k1'],
    );

  it('keeps a settlement in the socket past the turn, and writes it with the next waited-for call', async () => {
    const stream = client.stream;
    await observer.config('RESETSTAT');
    const settled = settle('r-1');
    await nextTurn();
    // Still held: nobody waits for a settlement's answer.
    expect(stream.writableCorked).toBe(1);
    expect(stream.writableLength).toBeGreaterThan(0);
    const position = runScript('tollgateUsageStreamPosition', ['other'], []);
    await nextTurn();
    expect(stream.writableCorked).toBe(0);
    expect(await settled).toBe(1);
    expect(await position).toEqual([0, '0-0']);
    // One socket read in Redis for both (the observer's own commands are on another connection,
    // and INFO counts as one more read).
    const stats = await observer.info('stats');
    const reads = Number(/total_reads_processed:(\d+)/.exec(stats)?.[1]);
    expect(reads).toBeLessThanOrEqual(3);
  });

  it('writes a settlement on its own once it has waited long enough', async () => {
    const stream = client.stream;
    const settled = settle('r-2');
    await nextTurn();
    expect(stream.writableCorked).toBe(1);
    expect(await settled).toBe(1);
    expect(stream.writableCorked).toBe(0);
    expect(await observer.xlen('tg:t:usage')).toBe(2);
  });

  it('refuses a call with the wrong number of keys without sending it', async () => {
    await expect(runScript('tollgateUsageStreamPosition', ['a', 'b'], [])).rejects.toThrow(
      'tollgateUsageStreamPosition: wrong key count',
    );
  });
});
