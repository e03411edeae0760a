/**
 * The store's scripts and the one way to run them. On Redis 7 and later they are one function
 * library (function-library.ts), loaded once per release and server (`FUNCTION LOAD`, again when a
 * restarted or emptied server answers that the function is not found) and called by `FCALL`: the
 * Lua they share is made at the load, not at every call. A Redis without functions (before 7, or
 * an ACL that does not allow `FCALL` or `FUNCTION LOAD`) gets EVALSHA instead, each script with the
 * shared Lua before it, and EVAL of the same script when the server answers NOSCRIPT (EVAL also
 * caches it). Either way one ioredis `Command` per call.
 *
 * Not ioredis `defineCommand` with auto-pipelining: that path builds, per batch of commands, a
 * `Pipeline` carrying a copy of every defined script's methods, and per command a `Script` wrapper,
 * several promises and callbacks that live until the whole batch has answered (about 8 KB per call,
 * much of it promoted out of the young generation under load). Here a call makes one `Command`;
 * commands issued in the same turn of the event loop still leave in one socket write, because the
 * connections are corked until `setImmediate` (what auto-pipelining did with its own batches).
 *
 * A settlement may wait: nobody waits for its answer (the caller's reply is complete), so it stays
 * corked until the next call that is waited for (an admission) is written, or for
 * SETTLEMENT_WAIT_MS at most. Below saturation that puts a call's settlement in the same socket
 * write, the same Redis read and the same reply as the next call's admission: one round trip per
 * call instead of two, half the wake-ups of Redis and of the gateway (docs/benchmarks.md as of 1a81819). A plain
 * command the client writes meanwhile waits with it, at most as long.
 */
import { createHash } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import { ADMISSION_KEY_COUNT, ADMISSION_LUA } from './admission-script.js';
import type { RedisClient } from './connect-redis-client.js';
import {
  ACQUIRE_UPSTREAM_SLOT_LUA,
  READ_ACCOUNT_COUNTERS_LUA,
  READ_KEY_COUNTERS_LUA,
  RENEW_LEASE_LUA,
  RESET_QUOTA_LUA,
  SWEEP_EXPIRED_LEASES_LUA,
} from './counter-scripts.js';
import { RESTORE_COUNTERS_LUA, USAGE_STREAM_POSITION_LUA } from './counter-restore-scripts.js';
import { ACK_CAPTURES_LUA, HAND_OFF_CAPTURE_LUA } from './capture-scripts.js';
import { COMMIT_POLICY_RELOAD_LUA } from './policy-marker-scripts.js';
import { SETTLEMENT_KEY_COUNT, SETTLEMENT_LUA } from './settlement-script.js';
import { buildFunctionLibrary } from './function-library.js';
import { LUA_SCRIPT_PRELUDE } from './lua-shared-functions.js';
import { ScriptCommand, scriptArgs } from './script-command.js';
import { CLAIM_UPSTREAM_LUA, REPORT_UPSTREAM_FAILURE_LUA } from './upstream-health-scripts.js';

/** How long a settlement may wait in the corked socket for a call that is waited for. */
export const SETTLEMENT_WAIT_MS = 2;

// `prelude`: the script starts from the shared Lua (LUA_SCRIPT_PRELUDE).
const SCRIPTS = {
  tollgateAdmit: { lua: ADMISSION_LUA, prelude: true, numberOfKeys: ADMISSION_KEY_COUNT },
  tollgateSettle: {
    lua: SETTLEMENT_LUA,
    prelude: true,
    numberOfKeys: SETTLEMENT_KEY_COUNT,
    mayWait: true,
  },
  tollgateReadKeyCounters: { lua: READ_KEY_COUNTERS_LUA, prelude: true, numberOfKeys: 4 },
  tollgateReadAccountCounters: { lua: READ_ACCOUNT_COUNTERS_LUA, prelude: true, numberOfKeys: 3 },
  tollgateResetQuota: { lua: RESET_QUOTA_LUA, numberOfKeys: 2 },
  tollgateAcquireUpstreamSlot: { lua: ACQUIRE_UPSTREAM_SLOT_LUA, numberOfKeys: 1 },
  tollgateClaimUpstream: { lua: CLAIM_UPSTREAM_LUA, numberOfKeys: 3 },
  tollgateReportUpstreamFailure: { lua: REPORT_UPSTREAM_FAILURE_LUA, numberOfKeys: 1 },
  tollgateSweepExpiredLeases: { lua: SWEEP_EXPIRED_LEASES_LUA, prelude: true, numberOfKeys: 3 },
  tollgateRenewLease: { lua: RENEW_LEASE_LUA, numberOfKeys: 2 },
  tollgateUsageStreamPosition: { lua: USAGE_STREAM_POSITION_LUA, numberOfKeys: 1 },
  tollgateCommitPolicyReload: { lua: COMMIT_POLICY_RELOAD_LUA, numberOfKeys: 2 },
  // Nobody waits for a hand-off either: it leaves with the settlement or the next admission.
  tollgateHandOffCapture: { lua: HAND_OFF_CAPTURE_LUA, numberOfKeys: 3, mayWait: true },
  tollgateAckCaptures: { lua: ACK_CAPTURES_LUA, numberOfKeys: 3 },
  // Any number of keys: the call passes them all.
  tollgateRestoreCounters: { lua: RESTORE_COUNTERS_LUA, numberOfKeys: null },
} as const satisfies Record<
  string,
  { lua: string; prelude?: boolean; numberOfKeys: number | null; mayWait?: boolean }
>;

export type ScriptName = keyof typeof SCRIPTS;

export type RunScript = (
  name: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
) => Promise<unknown>;

interface Script {
  /** The whole script as EVAL takes it (the shared Lua first, when it uses it). */
  lua: string;
  sha: string;
  functionName: string;
  numberOfKeys: number | null;
  mayWait: boolean;
}

type Connection = NonNullable<Redis['stream']>;
type ScriptCommandName = 'fcall' | 'evalsha' | 'eval';

/** The function library of this release's scripts, built once. */
export const STORE_FUNCTION_LIBRARY = buildFunctionLibrary(
  Object.fromEntries(Object.entries(SCRIPTS).map(([name, script]) => [name, script.lua])),
  LUA_SCRIPT_PRELUDE,
);

/** The sockets a command may be written to: the client's, or every cluster node's. */
function connectionsOf(client: RedisClient): Connection[] {
  const nodes = client instanceof Cluster ? client.nodes('all') : [client];
  const connections: Connection[] = [];
  for (const node of nodes) {
    // Typed as always there, but absent until the first connection attempt.
    const stream = node.stream as Connection | undefined;
    if (stream !== undefined) connections.push(stream);
  }
  return connections;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : '');

/** A server that has not loaded the library (new, restarted, or emptied by `FUNCTION FLUSH`). */
const isFunctionMissing = (error: unknown): boolean =>
  messageOf(error).startsWith('ERR Function not found');

/**
 * A server that cannot run functions for us: a Redis before 7 does not know FCALL or FUNCTION, and
 * an ACL may refuse either command.
 */
const FUNCTIONS_UNAVAILABLE = /^(?:ERR unknown command|NOPERM .*'(?:fcall|function\|load)')/i;
const areFunctionsUnavailable = (error: unknown): boolean =>
  FUNCTIONS_UNAVAILABLE.test(messageOf(error));

/** Loads the library on the client's server, or on every master of a cluster (REPLACE: idempotent). */
async function loadLibrary(client: RedisClient): Promise<void> {
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  await Promise.all(
    nodes.map((node) => node.call('FUNCTION', 'LOAD', 'REPLACE', STORE_FUNCTION_LIBRARY.source)),
  );
}

export function defineStoreScripts(client: RedisClient): RunScript {
  const scripts = Object.fromEntries(
    Object.entries(SCRIPTS).map(([name, script]) => {
      const lua = 'prelude' in script ? `${LUA_SCRIPT_PRELUDE}\n${script.lua}` : script.lua;
      const sha = createHash('sha1').update(lua).digest('hex');
      const mayWait = 'mayWait' in script && script.mayWait;
      const functionName = STORE_FUNCTION_LIBRARY.functionNames[name] as string;
      return [name, { lua, sha, functionName, numberOfKeys: script.numberOfKeys, mayWait }];
    }),
  ) as Record<ScriptName, Script>;
  // Functions until the server shows it has none; then EVALSHA for the life of the client.
  let functions = true;
  let loading: Promise<void> | null = null;
  const load = (): Promise<void> =>
    (loading ??= loadLibrary(client).finally(() => {
      loading = null;
    }));
  let corked: Connection[] | null = null;
  // An uncork is due at setImmediate (a call is waited for), or only by the settlement timer.
  let uncorkSoon = false;
  let waitTimer: NodeJS.Timeout | null = null;
  const uncork = (): void => {
    if (waitTimer !== null) clearTimeout(waitTimer);
    waitTimer = null;
    uncorkSoon = false;
    const connections = corked ?? [];
    corked = null;
    for (const connection of connections) connection.uncork();
  };
  const send = (name: ScriptCommandName, args: string[], mayWait: boolean): Promise<unknown> => {
    if (corked === null) {
      corked = connectionsOf(client);
      for (const connection of corked) connection.cork();
    }
    if (!mayWait && !uncorkSoon) {
      uncorkSoon = true;
      setImmediate(uncork);
    } else if (mayWait && !uncorkSoon && waitTimer === null) {
      waitTimer = setTimeout(uncork, SETTLEMENT_WAIT_MS);
    }
    // Both clients answer with the command's own promise (typed `unknown` by ioredis).
    return client.sendCommand(new ScriptCommand(name, args)) as Promise<unknown>;
  };
  const evaluate = (script: Script, keys: readonly string[], args: readonly (string | number)[]) =>
    send('evalsha', scriptArgs(script.sha, keys, args), script.mayWait).catch((error: unknown) => {
      if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
      return send('eval', scriptArgs(script.lua, keys, args), script.mayWait);
    });
  // Off the hot path: a call answered with an error. A missing library is loaded and the same
  // command's arguments sent again; a server without functions gets the script by EVALSHA.
  const recover = (
    error: unknown,
    script: Script,
    call: { wire: string[]; keys: readonly string[]; args: readonly (string | number)[] },
  ): Promise<unknown> => {
    const withoutFunctions = (failure: unknown): Promise<unknown> => {
      if (!areFunctionsUnavailable(failure)) throw failure;
      functions = false;
      return evaluate(script, call.keys, call.args);
    };
    if (!isFunctionMissing(error)) return withoutFunctions(error);
    return load().then(() => send('fcall', call.wire, script.mayWait), withoutFunctions);
  };
  // One closure per call, as with EVALSHA: the error path makes the rest.
  const callFunction = (
    script: Script,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> => {
    const wire = scriptArgs(script.functionName, keys, args);
    return send('fcall', wire, script.mayWait).catch((error: unknown) =>
      recover(error, script, { wire, keys, args }),
    );
  };
  return (name, keys, args) => {
    const script = scripts[name];
    if (script.numberOfKeys !== null && keys.length !== script.numberOfKeys) {
      return Promise.reject(new Error(`${name}: wrong key count`));
    }
    return functions ? callFunction(script, keys, args) : evaluate(script, keys, args);
  };
}
