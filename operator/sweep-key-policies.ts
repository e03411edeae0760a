/**
 * After gaining leadership: removes key documents that no ApiKey projects any more (a value rotated
 * or a key deleted while no operator ran). Documents of keys whose value is unreadable just now are
 * kept only if their keyUid still belongs to a live ApiKey.
 */
import type { OperatorContext } from './operator-context.js';
import { usableKeyHash } from './resolve-key-material.js';

export async function sweepKeyPolicies(context: OperatorContext): Promise<void> {
  const wanted = new Set<string>();
  const liveUids = new Set<string>();
  for (const object of context.cache.list('ApiKey')) {
    if (object.metadata.deletionTimestamp !== undefined) continue;
    liveUids.add(object.metadata.uid);
    const hash = usableKeyHash(context, object);
    if (hash !== null) wanted.add(hash);
  }
  const digests = await context.store.listKeyPolicyDigests();
  let removed = 0;
  for (const hash of digests.keys()) {
    if (wanted.has(hash)) continue;
    const policy = await context.store.getKeyPolicy(hash);
    if (policy === null) continue;
    if (policy.state === 'InvalidKey' && liveUids.has(policy.keyUid)) continue;
    await context.store.deleteKeyPolicy(hash);
    removed++;
  }
  if (removed > 0) context.logger.info({ removed }, 'stale key policies removed');
}
