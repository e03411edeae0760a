/**
 * Redis commands per request, from `INFO commandstats`: calls per command, the difference between
 * two readings, and the bench's own bookkeeping commands left out. Commands run inside Lua scripts
 * are counted by Redis too, so a short MONITOR sample splits what the gateway sends itself from
 * what the scripts run inside Redis.
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

/** One figure of each command's `INFO commandstats` line, bookkeeping left out. */
function readCommandFigure(infoText: string, figure: 'calls' | 'usec'): Map<string, number> {
  const values = new Map<string, number>();
  const pattern = new RegExp(`^cmdstat_([^:]+):.*\\b${figure}=(\\d+)`);
  for (const line of infoText.split(/\r?\n/)) {
    const match = pattern.exec(line);
    if (match?.[1] !== undefined && !BOOKKEEPING.has(match[1]))
      values.set(match[1], Number(match[2]));
  }
  return values;
}

export function parseCommandStats(infoText: string): Map<string, number> {
  return readCommandFigure(infoText, 'calls');
}

/**
 * Microseconds Redis spent executing each command since the last reset (`usec` of
 * `INFO commandstats`), bookkeeping left out. A script call's time includes the commands it ran,
 * which are also counted under their own names.
 */
export function parseCommandMicroseconds(infoText: string): Map<string, number> {
  return readCommandFigure(infoText, 'usec');
}

export interface ScriptTimes {
  /** Executing the script calls, the commands they ran included. */
  scripts: number;
  /** The commands the scripts ran (every command that is not a script call). */
  commands: number;
  /** The scripts' own: arguments, Lua, and each command's call from Lua and its reply. */
  scriptsOwn: number;
}

/** Pure: Redis's execution time split into the scripts' own and their commands'. */
export function splitScriptTimes(times: ReadonlyMap<string, number>): ScriptTimes {
  let scripts = 0;
  let commands = 0;
  for (const [command, usec] of times) {
    if (SCRIPT_CALLS.has(command)) scripts += usec;
    else commands += usec;
  }
  return { scripts, commands, scriptsOwn: Math.max(0, scripts - commands) };
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

export interface CommandSources {
  sent: number;
  /** Commands the gateway sent to Redis, per request (a pipeline counts each command). */
  clientPerRequest: number;
  /** Commands Lua scripts ran inside Redis, per request. */
  insideScriptsPerRequest: number;
  clientByCommand: Record<string, number>;
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

  /** Counts commands seen by MONITOR while `run` drives load; `run` returns the requests sent. */
  async sampleSources(run: () => Promise<number>): Promise<CommandSources> {
    const monitor = await this.#client.monitor();
    const fromClients = new Map<string, number>();
    let insideScripts = 0;
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      const command = (args[0] ?? '').toLowerCase();
      if (source === 'lua') insideScripts += 1;
      else if (!BOOKKEEPING.has(command))
        fromClients.set(command, (fromClients.get(command) ?? 0) + 1);
    });
    let sent = 0;
    try {
      sent = await run();
    } finally {
      monitor.disconnect();
    }
    const perRequest = (count: number): number => (sent === 0 ? 0 : count / sent);
    const counts = countCommands(fromClients);
    return {
      sent,
      clientPerRequest: perRequest(counts.total),
      insideScriptsPerRequest: perRequest(insideScripts),
      clientByCommand: Object.fromEntries(
        Object.entries(counts.byCommand).map(([command, count]) => [command, perRequest(count)]),
      ),
    };
  }

  async close(): Promise<void> {
    await this.#client.quit();
  }
}

/** Redis's own CPU seconds so far (`INFO cpu`: system plus user). */
export async function readRedisCpuSeconds(redis: {
  info(section: 'cpu'): Promise<string>;
}): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1]);
  return field('used_cpu_sys') + field('used_cpu_user');
}

/**
 * Socket reads and writes the Redis server processed since its last `CONFIG RESETSTAT`
 * (`INFO stats`): how many client writes a request's commands arrived in, and how many replies
 * Redis wrote back, which tells how well the gateway's commands share a socket write.
 */
export async function readRedisSocketCounts(redis: {
  info(section: 'stats'): Promise<string>;
}): Promise<{ reads: number; writes: number }> {
  const info = await redis.info('stats');
  const field = (name: string): number => Number(new RegExp(`${name}:(\\d+)`).exec(info)?.[1]);
  return { reads: field('total_reads_processed'), writes: field('total_writes_processed') };
}
