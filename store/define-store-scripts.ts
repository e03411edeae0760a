/**
 * Registers every store script once with ioredis `defineCommand` (EVALSHA, EVAL on NOSCRIPT) and
 * gives a typed way to call them.
 */
import { ADMISSION_KEY_COUNT, ADMISSION_LUA } from './admission-script.js';
import type { RedisClient } from './connect-redis-client.js';
import {
  ACQUIRE_UPSTREAM_SLOT_LUA,
  READ_ACCOUNT_COUNTERS_LUA,
  READ_KEY_COUNTERS_LUA,
  RESET_QUOTA_LUA,
  SWEEP_EXPIRED_LEASES_LUA,
} from './counter-scripts.js';
import { RESTORE_COUNTERS_LUA, USAGE_STREAM_POSITION_LUA } from './counter-restore-scripts.js';
import { SETTLEMENT_KEY_COUNT, SETTLEMENT_LUA } from './settlement-script.js';
import { CLAIM_UPSTREAM_LUA, REPORT_UPSTREAM_FAILURE_LUA } from './upstream-health-scripts.js';

const SCRIPTS = {
  tollgateAdmit: { lua: ADMISSION_LUA, numberOfKeys: ADMISSION_KEY_COUNT },
  tollgateSettle: { lua: SETTLEMENT_LUA, numberOfKeys: SETTLEMENT_KEY_COUNT },
  tollgateReadKeyCounters: { lua: READ_KEY_COUNTERS_LUA, numberOfKeys: 4 },
  tollgateReadAccountCounters: { lua: READ_ACCOUNT_COUNTERS_LUA, numberOfKeys: 3 },
  tollgateResetQuota: { lua: RESET_QUOTA_LUA, numberOfKeys: 2 },
  tollgateAcquireUpstreamSlot: { lua: ACQUIRE_UPSTREAM_SLOT_LUA, numberOfKeys: 1 },
  tollgateClaimUpstream: { lua: CLAIM_UPSTREAM_LUA, numberOfKeys: 3 },
  tollgateReportUpstreamFailure: { lua: REPORT_UPSTREAM_FAILURE_LUA, numberOfKeys: 1 },
  tollgateSweepExpiredLeases: { lua: SWEEP_EXPIRED_LEASES_LUA, numberOfKeys: 3 },
  tollgateUsageStreamPosition: { lua: USAGE_STREAM_POSITION_LUA, numberOfKeys: 1 },
  // Any number of keys: the call passes the count first.
  tollgateRestoreCounters: { lua: RESTORE_COUNTERS_LUA, numberOfKeys: null },
} as const satisfies Record<string, { lua: string; numberOfKeys: number | null }>;

export type ScriptName = keyof typeof SCRIPTS;

export type RunScript = (
  name: ScriptName,
  keys: readonly string[],
  args: readonly (string | number)[],
) => Promise<unknown>;

type ScriptFunction = (
  ...keysAndArgs: (string | number | (string | number)[])[]
) => Promise<unknown>;

export function defineStoreScripts(client: RedisClient): RunScript {
  for (const [name, script] of Object.entries(SCRIPTS)) {
    client.defineCommand(
      name,
      script.numberOfKeys === null
        ? { lua: script.lua }
        : { lua: script.lua, numberOfKeys: script.numberOfKeys },
    );
  }
  return (name, keys, args) => {
    const { numberOfKeys } = SCRIPTS[name];
    const method = Reflect.get(client, name) as ScriptFunction;
    if (numberOfKeys === null) return method.call(client, keys.length, ...keys, ...args);
    if (keys.length !== numberOfKeys) throw new Error(`${name}: wrong key count`);
    // One array: ioredis flattens a command's arguments one level.
    return method.call(client, [...keys, ...args]);
  };
}
