/**
 * After gaining leadership: removes key documents that no ApiKey projects any more (a value rotated
 * or a key deleted while no operator ran). Wanted: every hash a live ApiKey's Secret yields,
 * invalid values included (their documents refuse with InvalidKey).
 */
import type { OperatorContext } from './operator-context.js';
import { usableKeyHash } from './resolve-key-material.js';

function isWritten(context: OperatorContext, hash: string): boolean {
  for (const written of context.writtenKeyHashes.values()) if (written === hash) return true;
  return false;
}

export async function sweepKeyPolicies(context: OperatorContext): Promise<void> {
  const wanted = new Set<string>();
  for (const object of context.cache.list('ApiKey')) {
    if (object.metadata.deletionTimestamp !== undefined) continue;
    const hash = usableKeyHash(context, object, true);
    if (hash !== null) wanted.add(hash);
  }
  const digests = await context.store.listKeyPolicyDigests();
  let removed = 0;
  for (const hash of digests.keys()) {
    // Read again for every document: a reconcile may record a hash while the sweep awaits.
    if (wanted.has(hash) || isWritten(context, hash)) continue;
    context.programmedKeyDigests.delete(hash);
    await context.store.deleteKeyPolicy(hash);
    removed++;
  }
  if (removed > 0) context.logger.info({ removed }, 'stale key policies removed');
}
