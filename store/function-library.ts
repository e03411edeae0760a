/**
 * The store's scripts as one Redis function library (Redis 7 `FUNCTION LOAD`), so the Lua they
 * share is made once per load instead of on every call: a script run by EVALSHA starts from
 * nothing, and the shared functions and tables (lua-shared-functions.ts, counters-whole.ts) cost
 * Redis 2.5 to 4.5 µs per call to make again (`npx tsx bench/micro/lua-script-overhead.ts`). In the
 * library they are the top level, and each script is a function whose parameters are named
 * `KEYS` and `ARGV`, so its body runs unchanged by EVALSHA or by FCALL.
 *
 * The library and its functions are named for the library's own text: two releases of the gateway
 * sharing a Redis (a rolling upgrade) each load their own and never replace the other's, and a
 * release loads the same name again into a server that lost it. Pure.
 */
import { createHash } from 'node:crypto';

export interface FunctionLibrary {
  name: string;
  /** What `FUNCTION LOAD` takes: the shebang line naming the library, then its Lua. */
  source: string;
  /** The function each script is registered as. */
  functionNames: Record<string, string>;
}

/** A Redis function name: letters, digits and underscores only. */
const FUNCTION_NAME = /^[A-Za-z0-9_]+$/;

/**
 * `scripts`: each script's own Lua by name. Every script sees the shared Lua; one that does not
 * use it is wrapped as it is (its own locals shadow any shared name).
 */
export function buildFunctionLibrary(
  scripts: Record<string, string>,
  sharedLua: string,
): FunctionLibrary {
  const registrations = Object.entries(scripts).map(
    ([name, lua]) => [name, `function(KEYS, ARGV)\n${lua}\nend`] as const,
  );
  const text = [sharedLua, ...registrations.map(([name, body]) => `${name}\n${body}`)].join('\n');
  const version = createHash('sha1').update(text).digest('hex').slice(0, 16);
  const libraryName = `tollgate_${version}`;
  const functionNames: Record<string, string> = {};
  const lines = [`#!lua name=${libraryName}`, sharedLua];
  for (const [name, body] of registrations) {
    if (!FUNCTION_NAME.test(name)) throw new Error(`not a Redis function name: ${name}`);
    const functionName = `${libraryName}_${name}`;
    functionNames[name] = functionName;
    lines.push(`redis.register_function('${functionName}', ${body})`);
  }
  return { name: libraryName, source: lines.join('\n'), functionNames };
}
