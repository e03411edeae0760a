/**
 * Deleting an ApiKey: its policy document and counters go at once (while the finalizer holds the
 * object), then the finalizer is removed with a JSON patch. Keys that lost a duplicate-value contest
 * to this key get another chance.
 */
import { FINALIZER, type ApiKey } from '../crds/schema/resources.js';
import type { OperatorContext } from './operator-context.js';
import { queueKey } from './operator-context.js';
import { findCondition } from './reconcile/manage-conditions.js';
import { usableKeyHash } from './resolve-key-material.js';
import { deleteKeyPolicyIfOwned } from './write-key-policy.js';

function requeueDuplicates(context: OperatorContext): void {
  for (const other of context.cache.list('ApiKey')) {
    const status = (other as { status?: ApiKey['status'] }).status;
    if (findCondition(status?.conditions, 'Ready')?.reason === 'DuplicateKey') {
      context.queue.add(queueKey('ApiKey', other.metadata.namespace, other.metadata.name));
    }
  }
}

export async function finalizeApiKey(
  context: OperatorContext,
  options: { objectKey: string; apiKey: ApiKey | null },
): Promise<void> {
  const { apiKey, objectKey } = options;
  const known = context.writtenKeyHashes.get(objectKey);
  if (apiKey === null) {
    // Gone without our finalizer (or already finalized): drop what this process knows it wrote.
    if (known !== undefined) {
      context.programmedKeyDigests.delete(known);
      const existing = await context.store.getKeyPolicy(known);
      if (existing !== null) await context.store.deleteKeyPolicy(known);
      context.writtenKeyHashes.delete(objectKey);
    }
    requeueDuplicates(context);
    return;
  }
  const finalizers = apiKey.metadata.finalizers ?? [];
  if (!finalizers.includes(FINALIZER)) return;
  const keyUid = apiKey.metadata.uid;
  const object = context.cache.get('ApiKey', apiKey.metadata.name, apiKey.metadata.namespace);
  const hashes = new Set<string>();
  if (known !== undefined) hashes.add(known);
  const current = object === undefined ? null : usableKeyHash(context, object, true);
  if (current !== null) hashes.add(current);
  for (const hash of hashes) await deleteKeyPolicyIfOwned(context, { hash, keyUid });
  await context.store.deleteKeyCounters(apiKey.metadata.namespace ?? '', keyUid);
  context.writtenKeyHashes.delete(objectKey);
  context.usageReadRounds.delete(keyUid);
  context.metrics.forgetKey(apiKey);
  await context.api.removeFinalizer(
    { kind: 'ApiKey', namespace: apiKey.metadata.namespace, name: apiKey.metadata.name },
    { finalizers, finalizer: FINALIZER },
  );
  context.logger.info(
    { namespace: apiKey.metadata.namespace, apiKey: apiKey.metadata.name },
    'ApiKey finalized',
  );
  requeueDuplicates(context);
}
