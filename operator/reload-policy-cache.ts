/**
 * The full program of the policy cache, at bulk speed, from the informer caches: every Upstream,
 * Group and Account first (what a key's calls need besides its own document), then every ApiKey
 * whose Secret exists, written in batches (pipelined), then the generation marker. Used when the
 * marker is absent: the first program of a new store, and after the store lost its data. Nothing
 * is read from the store and no status is written: the objects did not change, the store did.
 *
 * Objects that change meanwhile are reconciled by the work queue as usual; a document this program
 * wrote from an object that has since gone (a key deleted or its value rotated mid-program) is
 * removed by the key-policy sweep queued when the program ends.
 */
import { randomUUID } from 'node:crypto';
import type { KeyPolicyEntry } from '../store/store.js';
import type { OperatorContext } from './operator-context.js';
import { queueKey } from './operator-context.js';
import { projectKeyDocument } from './project-key-document.js';
import { readResource } from './read-resource.js';
import { readResourceOrNull } from './read-typed-resource.js';
import { readSubscribedPlan, wasProgrammed } from './reconcile-account.js';
import { projectUpstreamDocument } from './reconcile-cluster-resources.js';
import { projectAccountPolicy } from './reconcile/project-account-policy.js';
import { projectGroupPolicy } from './reconcile/project-group-policy.js';
import { readKeyMaterial, usableKeyHash } from './resolve-key-material.js';
import type { CachedObject } from './watch-resources.js';

/** Documents per batch: projected in one go, then written in one pipelined round. */
export const RELOAD_BATCH = 500;

export interface ReloadCounts {
  upstreams: number;
  groups: number;
  accounts: number;
  keys: number;
  /** False when the store lost data again or another program began: the marker was not written. */
  committed: boolean;
}

export class LeadershipLostError extends Error {
  constructor() {
    super('leadership lost during the policy cache reload');
    this.name = 'LeadershipLostError';
  }
}

async function inBatches<T>(items: readonly T[], write: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += RELOAD_BATCH) {
    await Promise.all(items.slice(start, start + RELOAD_BATCH).map(write));
  }
}

async function programClusterResources(
  context: OperatorContext,
): Promise<Omit<ReloadCounts, 'keys' | 'committed'>> {
  const { cache, store } = context;
  const upstreams = cache
    .list('Upstream')
    .map((object) => readResourceOrNull(context, 'Upstream', { name: object.metadata.name }))
    .flatMap((upstream) => {
      const policy = upstream === null ? null : projectUpstreamDocument(context, upstream).policy;
      return policy === null ? [] : [policy];
    });
  await inBatches(upstreams, (policy) => store.putUpstream(policy));
  const groups = cache
    .list('Group')
    .map((object) => readResourceOrNull(context, 'Group', { name: object.metadata.name }))
    .flatMap((group) => (group === null ? [] : [projectGroupPolicy(group)]));
  await inBatches(groups, (policy) => store.putGroup(policy));
  const accounts = cache
    .list('Account')
    .filter((object) => object.metadata.name === 'default')
    .map((object) =>
      readResourceOrNull(context, 'Account', {
        name: 'default',
        namespace: object.metadata.namespace ?? '',
      }),
    )
    .flatMap((account) => (account === null ? [] : [account]));
  // An Account programmed before is put as such: its counters wait for the ledger's restore.
  await inBatches(accounts, (account) =>
    store.putAccount(
      account.metadata.namespace ?? '',
      projectAccountPolicy(account, readSubscribedPlan(context, account)),
      {
        programmedBefore: wasProgrammed(account),
      },
    ),
  );
  return { upstreams: upstreams.length, groups: groups.length, accounts: accounts.length };
}

/** One batch of key documents, projected from the caches (no Secret is created here). */
function projectKeyBatch(
  context: OperatorContext,
  objects: readonly CachedObject[],
): KeyPolicyEntry[] {
  const now = context.now();
  const entries: KeyPolicyEntry[] = [];
  for (const object of objects) {
    const read = readResource('ApiKey', object);
    if (!read.ok || read.resource.metadata.deletionTimestamp !== undefined) continue;
    const apiKey = read.resource;
    const material = readKeyMaterial(context, {
      apiKey,
      hashOf: (other) => usableKeyHash(context, other),
    });
    if (material === null) continue;
    const { hash, policy } = projectKeyDocument(context, { apiKey, material, now });
    if (hash !== null && policy !== null) entries.push({ keyHash: hash, policy });
  }
  return entries;
}

export async function reloadPolicyCache(
  context: OperatorContext,
  options: { stillLeading: () => boolean },
): Promise<ReloadCounts> {
  const generation = `${String(context.now())}-${randomUUID().slice(0, 8)}`;
  await context.store.beginPolicyReload(generation);
  // Digests trusted without a store read may name documents the store no longer holds.
  context.programmedKeyDigests.clear();
  const counts = await programClusterResources(context);
  const objects = context.cache.list('ApiKey');
  let keys = 0;
  for (let start = 0; start < objects.length; start += RELOAD_BATCH) {
    if (!options.stillLeading()) throw new LeadershipLostError();
    const entries = projectKeyBatch(context, objects.slice(start, start + RELOAD_BATCH));
    await context.store.putKeyPolicies(entries);
    const at = context.now();
    for (const { keyHash, policy } of entries) {
      context.programmedKeyDigests.set(keyHash, { digest: policy.digest, at });
    }
    keys += entries.length;
  }
  if (!options.stillLeading()) throw new LeadershipLostError();
  const committed = await context.store.commitPolicyReload(generation);
  context.queue.add(queueKey('Sweep', '', 'key-policies'));
  return { ...counts, keys, committed };
}
