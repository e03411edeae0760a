/**
 * `npx tsx bench/micro/lua-script-overhead.ts [calls]`: what a store script costs Redis besides its
 * commands. A private `redis-server` runs script calls of known shapes (`calls` each, 20,000 by
 * default, pipelined in batches of 1,000) and `INFO commandstats` gives Redis's execution time per
 * script call: an empty script; the shared Lua every admission and settlement script starts with
 * (lua-shared-functions.ts, counters-whole.ts: its functions and tables are made anew on every call,
 * as a script keeps nothing between calls); 30 arguments; 10 `HGET`s; 10 `HMGET`s of 9 fields (the
 * key counters' read); and by FCALL, a function of a library whose top level is that shared Lua (as
 * the store's function library has it, function-library.ts). From those: the prelude's and the
 * arguments' cost per script call, what the prelude costs a call when the library made it once,
 * and what calling a command from Lua adds to the command's own time. Writes the raw result
 * `bench/results/<date>T<time>-lua-script-overhead.json` (write-bench-result.ts).
 */
import { Redis } from 'ioredis';
import { startRedisServer } from '../../test/support/redis-server.js';
import { buildFunctionLibrary } from '../../store/function-library.js';
import { LUA_SCRIPT_PRELUDE } from '../../store/lua-shared-functions.js';
import { parseCommandMicroseconds } from '../support/read-redis-commandstats.js';
import { startBenchRun } from '../support/write-bench-result.js';

const calls = Number(process.argv[2] ?? 20_000);
const BATCH = 1_000;
const ARGUMENTS = Array.from({ length: 30 }, (_, index) => `argument-${String(index)}-0123456789`);

interface Shape {
  lua: string;
  args: string[];
  /** Called by FCALL as a function of a library with the shared Lua at its top. */
  inLibrary?: boolean;
  /** The command the script runs, and how many times. */
  runs?: { command: string; times: number };
}

const SHAPES: Record<string, Shape> = {
  empty: { lua: 'return 1', args: [] },
  prelude: { lua: `${LUA_SCRIPT_PRELUDE}\nreturn 1`, args: [] },
  preludeInLibrary: { lua: 'return 1', args: [], inLibrary: true },
  arguments30: { lua: 'return #ARGV', args: ARGUMENTS },
  hget10: {
    lua: "for _ = 1, 10 do redis.call('HGET', 'h', 'used') end return 1",
    args: [],
    runs: { command: 'hget', times: 10 },
  },
  hmget10: {
    lua: "for _ = 1, 10 do redis.call('HMGET', 'h', 'used', 'reserved', 'inflight', 'a', 'b', 'c', 'd', 'e', 'f') end return 1",
    args: [],
    runs: { command: 'hmget', times: 10 },
  },
};

const round = (value: number): number => Math.round(value * 100) / 100;

const run = startBenchRun('lua-script-overhead', 'bench/micro/lua-script-overhead.ts');
const server = await startRedisServer();
const redis = new Redis(server.url);
try {
  await redis.hset('h', 'used', '123456', 'reserved', '0', 'inflight', '1');
  const perScriptCall: Record<string, number> = {};
  const perCommand: Record<string, { own: number; fromLua: number }> = {};
  for (const [name, shape] of Object.entries(SHAPES)) {
    // A script call's command and its first arguments: FCALL of the function, or EVALSHA.
    let call: [command: 'fcall' | 'evalsha', head: string];
    if (shape.inLibrary === true) {
      const library = buildFunctionLibrary({ [name]: shape.lua }, LUA_SCRIPT_PRELUDE);
      await redis.call('FUNCTION', 'LOAD', 'REPLACE', library.source);
      call = ['fcall', library.functionNames[name] as string];
    } else {
      call = ['evalsha', (await redis.script('LOAD', shape.lua)) as string];
    }
    await redis.config('RESETSTAT');
    for (let sent = 0; sent < calls; sent += BATCH) {
      const pipeline = redis.pipeline();
      for (let index = 0; index < BATCH; index++) pipeline.call(...call, 0, ...shape.args);
      await pipeline.exec();
    }
    const times = parseCommandMicroseconds(await redis.info('commandstats'));
    perScriptCall[name] = round((times.get(call[0]) ?? NaN) / calls);
    if (shape.runs !== undefined) {
      const { command, times: count } = shape.runs;
      const own = (times.get(command) ?? NaN) / (calls * count);
      const fromLua = ((perScriptCall[name] ?? NaN) - (perScriptCall.empty ?? NaN)) / count - own;
      perCommand[command] = { own: round(own), fromLua: round(fromLua) };
    }
  }
  const empty = perScriptCall.empty ?? NaN;
  const result = {
    calls,
    microsecondsPerScriptCall: perScriptCall,
    preludePerScriptCall: round((perScriptCall.prelude ?? NaN) - empty),
    preludeInLibraryPerCall: round((perScriptCall.preludeInLibrary ?? NaN) - empty),
    thirtyArgumentsPerScriptCall: round((perScriptCall.arguments30 ?? NaN) - empty),
    commandCalledFromLua: perCommand,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  run.write(result);
} finally {
  redis.disconnect();
  await server.stop();
}
