/**
 * Policy documents in Redis: one JSON string per key (by key hash), group and upstream; the account
 * policy is a hash in its namespace's slot so the admission script can read it. The key digest
 * index is one hash in one slot, so `listKeyPolicyDigests` works on a cluster.
 */
import { encodeMembersField, encodePlanField } from './encode-budget.js';
import type { RedisClient } from './connect-redis-client.js';
import { guardRedis } from './connect-redis-client.js';
import { COUNTERS_MARK_FIELDS, countersWhole, readCountersMarks } from './counters-whole.js';
import type { RunScript } from './define-store-scripts.js';
import { COUNTERS_PRESENT_FIELD, type RedisKeyNames } from './redis-key-names.js';
import type {
  AccountPolicy,
  GroupPolicy,
  KeyPolicy,
  PolicyReader,
  PolicyWriter,
  UpstreamPolicy,
} from './store.js';

export type RedisPolicyStore = PolicyReader &
  Omit<PolicyWriter, 'resetQuota' | 'deleteKeyCounters'>;

/** Documents are written by this module only, so their shape is trusted. */
function parseDocument(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

export function createRedisPolicyStore(
  client: RedisClient,
  names: RedisKeyNames,
  runScript: RunScript,
): RedisPolicyStore {
  return {
    // The policy and the index live in different slots: the policy is written first and removed
    // first, so an interrupted writer leaves an index the next diff repairs.
    putKeyPolicy: (keyHash, policy: KeyPolicy) =>
      guardRedis(async () => {
        await client.set(names.keyPolicy(keyHash), JSON.stringify(policy));
        await client.hset(names.keyPolicyIndex, keyHash, policy.digest);
      }),
    // Issued in one turn: auto-pipelining sends the documents in one write per node, then the
    // index entries in one command. The caller bounds the batch.
    putKeyPolicies: (entries) =>
      guardRedis(async () => {
        if (entries.length === 0) return;
        await Promise.all(
          entries.map(({ keyHash, policy }) =>
            client.set(names.keyPolicy(keyHash), JSON.stringify(policy)),
          ),
        );
        const fields: string[] = [];
        for (const { keyHash, policy } of entries) fields.push(keyHash, policy.digest);
        await client.hset(names.keyPolicyIndex, ...fields);
      }),
    deleteKeyPolicy: (keyHash) =>
      guardRedis(async () => {
        await client.del(names.keyPolicy(keyHash));
        await client.hdel(names.keyPolicyIndex, keyHash);
      }),
    listKeyPolicyDigests: () =>
      guardRedis(async () => new Map(Object.entries(await client.hgetall(names.keyPolicyIndex)))),
    getKeyPolicy: (keyHash) =>
      guardRedis(
        async () => parseDocument(await client.get(names.keyPolicy(keyHash))) as KeyPolicy | null,
      ),
    putGroup: (policy: GroupPolicy) =>
      guardRedis(async () => {
        await client.set(names.group(policy.name), JSON.stringify(policy));
      }),
    deleteGroup: (name) =>
      guardRedis(async () => {
        await client.del(names.group(name));
      }),
    getGroup: (name) =>
      guardRedis(
        async () => parseDocument(await client.get(names.group(name))) as GroupPolicy | null,
      ),
    putUpstream: (policy: UpstreamPolicy) =>
      guardRedis(async () => {
        await client.set(names.upstream(policy.name), JSON.stringify(policy));
      }),
    deleteUpstream: (name) =>
      guardRedis(async () => {
        await client.del(names.upstream(name));
      }),
    getUpstream: (name) =>
      guardRedis(
        async () => parseDocument(await client.get(names.upstream(name))) as UpstreamPolicy | null,
      ),
    putAccount: (namespace, policy: AccountPolicy, options = {}) =>
      guardRedis(async () => {
        const ns = names.namespace(namespace);
        // Decided before the policy is written, so a new account is never refused as restoring.
        // Counters of a release before the marker are whole: marked, never queued.
        const marks = readCountersMarks(
          await client.hmget(ns.accountCounters, ...COUNTERS_MARK_FIELDS),
        );
        if (marks.present === null) {
          if (options.programmedBefore === true && !countersWhole(marks)) {
            await client.sadd(names.restoreQueue, namespace);
          } else await client.hset(ns.accountCounters, COUNTERS_PRESENT_FIELD, '1');
        }
        await client.hset(ns.accountPolicy, {
          doc: JSON.stringify(policy),
          uid: policy.uid,
          credit: policy.creditNano === null ? '' : String(policy.creditNano),
          maxConcurrent: String(policy.maxConcurrent),
          ...(policy.plan === undefined ? {} : { plan: encodePlanField(policy.plan) }),
          ...(policy.memberLimits === undefined
            ? {}
            : { members: encodeMembersField(policy.memberLimits) }),
        });
        // The admission skips the plan and member checks for an account without them.
        const absent = [
          ...(policy.plan === undefined ? ['plan'] : []),
          ...(policy.memberLimits === undefined ? ['members'] : []),
        ];
        if (absent.length > 0) await client.hdel(ns.accountPolicy, ...absent);
        // Indexed after the write, so the sweep never misses an account that can admit. A deleted
        // account stays indexed: its namespace may still hold leases to charge.
        await client.sadd(names.accountIndex, namespace);
      }),
    deleteAccount: (namespace) =>
      guardRedis(async () => {
        await client.del(names.namespace(namespace).accountPolicy);
      }),
    readPolicyMarker: () => guardRedis(() => client.get(names.policyMarker)),
    beginPolicyReload: (generation) =>
      guardRedis(async () => {
        await client.set(names.policyReload, generation);
      }),
    commitPolicyReload: (generation) =>
      guardRedis(
        async () =>
          (await runScript(
            'tollgateCommitPolicyReload',
            [names.policyMarker, names.policyReload],
            [generation],
          )) === 1,
      ),
    getAccount: (namespace) =>
      guardRedis(
        async () =>
          parseDocument(
            await client.hget(names.namespace(namespace).accountPolicy, 'doc'),
          ) as AccountPolicy | null,
      ),
  };
}
