/**
 * The store's scripts and the one way to run them: EVALSHA as one ioredis `Command`, EVAL of
 * the same script when the server answers NOSCRIPT (a new or restarted server; EVAL also caches it).
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
import { ScriptCommand, scriptArgs } from './script-command.js';
import { CLAIM_UPSTREAM_LUA, REPORT_UPSTREAM_FAILURE_LUA } from './upstream-health-scripts.js';

/** How long a settlement may wait in the corked socket for a call that is waited for. */
export const SETTLEMENT_WAIT_MS = 2;

const SCRIPTS = {
  tollgateAdmit: { lua: ADMISSION_LUA, numberOfKeys: ADMISSION_KEY_COUNT },
  tollgateSettle: { lua: SETTLEMENT_LUA, numberOfKeys: SETTLEMENT_KEY_COUNT, mayWait: true },
  tollgateReadKeyCounters: { lua: READ_KEY_COUNTERS_LUA, numberOfKeys: 4 },
  tollgateReadAccountCounters: { lua: READ_ACCOUNT_COUNTERS_LUA, numberOfKeys: 3 },
  tollgateResetQuota: { lua: RESET_QUOTA_LUA, numberOfKeys: 2 },
  tollgateAcquireUpstreamSlot: { lua: ACQUIRE_UPSTREAM_SLOT_LUA, numberOfKeys: 1 },
  tollgateClaimUpstream: { lua: CLAIM_UPSTREAM_LUA, numberOfKeys: 3 },
  tollgateReportUpstreamFailure: { lua: REPORT_UPSTREAM_FAILURE_LUA, numberOfKeys: 1 },
  tollgateSweepExpiredLeases: { lua: SWEEP_EXPIRED_LEASES_LUA, numberOfKeys: 3 },
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
  { lua: string; numberOfKeys: number | null; mayWait?: boolean }
>;

export type ScriptName = keyof typeof SCRIPTS;

export type RunScript = (
  name: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
) => Promise<unknown>;

interface Script {
  lua: string;
  sha: string;
  numberOfKeys: number | null;
  mayWait: boolean;
}

type Connection = NonNullable<Redis['stream']>;

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

export function defineStoreScripts(client: RedisClient): RunScript {
  const scripts = Object.fromEntries(
    Object.entries(SCRIPTS).map(([name, script]) => {
      const sha = createHash('sha1').update(script.lua).digest('hex');
      const mayWait = 'mayWait' in script && script.mayWait;
      return [name, { lua: script.lua, sha, numberOfKeys: script.numberOfKeys, mayWait }];
    }),
  ) as Record<ScriptName, Script>;
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
  const send = (name: 'evalsha' | 'eval', args: string[], mayWait: boolean): Promise<unknown> => {
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
  return (name, keys, args) => {
    const script = scripts[name];
    if (script.numberOfKeys !== null && keys.length !== script.numberOfKeys) {
      return Promise.reject(new Error(`${name}: wrong key count`));
    }
    return send('evalsha', scriptArgs(script.sha, keys, args), script.mayWait).catch(
      (error: unknown) => {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return send('eval', scriptArgs(script.lua, keys, args), script.mayWait);
      },
    );
  };
}
