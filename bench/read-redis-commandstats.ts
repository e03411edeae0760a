/**
 * Redis commands per request, from `INFO commandstats`: calls per command, the difference between
 * two readings, and the bench's own bookkeeping commands left out. Commands run inside Lua scripts
 * are counted by Redis too, so the figure is split into script calls and everything else.
 */
import { Redis } from 'ioredis';

/** Commands the bench itself sends while measuring. */
const BOOKKEEPING = new Set([
  'info',
  'config|resetstat',
  'config',
  'ping',
  'hello',
  'client|setinfo',
]);
const SCRIPT_CALLS = new Set(['evalsha', 'eval', 'evalsha_ro', 'eval_ro', 'fcall', 'fcall_ro']);

export function parseCommandStats(infoText: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of infoText.split(/\r?\n/)) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match?.[1] !== undefined && !BOOKKEEPING.has(match[1]))
      calls.set(match[1], Number(match[2]));
  }
  return calls;
}

export interface CommandCounts {
  total: number;
  scripts: number;
  byCommand: Record<string, number>;
}

export function countCommands(calls: ReadonlyMap<string, number>): CommandCounts {
  const byCommand: Record<string, number> = {};
  let total = 0;
  let scripts = 0;
  for (const [command, count] of calls) {
    byCommand[command] = count;
    total += count;
    if (SCRIPT_CALLS.has(command)) scripts += count;
  }
  return { total, scripts, byCommand };
}

export class RedisCommandStats {
  readonly #client: Redis;

  constructor(url: string) {
    this.#client = new Redis(url, { maxRetriesPerRequest: 1 });
  }

  async reset(): Promise<void> {
    await this.#client.config('RESETSTAT');
  }

  async read(): Promise<CommandCounts> {
    return countCommands(parseCommandStats(await this.#client.info('commandstats')));
  }

  async close(): Promise<void> {
    await this.#client.quit();
  }
}
