/**
 * The key policy writer: writes a key's document only when its digest changed, and deletes the
 * documents a key no longer owns (a rotated value leaves its old hash behind). A document is deleted
 * only when it still belongs to the same key uid, so a key never removes another key's entry.
 */
import type { KeyPolicy } from '../store/policy-documents.js';
import type { OperatorContext } from './operator-context.js';

export interface KeyPolicyWrite {
  /** `namespace/name` of the ApiKey. */
  objectKey: string;
  keyUid: string;
  hash: string | null;
  policy: KeyPolicy | null;
  /**
   * The hash is of a value generated in this reconcile (a new Secret): no document can exist
   * under it, so it is written without reading the store first.
   */
  fresh?: boolean;
}

/** How long a digest this process wrote is trusted without reading the store again. */
export const KNOWN_DIGEST_TTL_MS = 60_000;

export async function deleteKeyPolicyIfOwned(
  context: OperatorContext,
  options: { hash: string; keyUid: string },
): Promise<void> {
  context.programmedKeyDigests.delete(options.hash);
  const existing = await context.store.getKeyPolicy(options.hash);
  if (existing !== null && existing.keyUid === options.keyUid) {
    await context.store.deleteKeyPolicy(options.hash);
  }
}

function knownDigest(context: OperatorContext, hash: string): string | undefined {
  const known = context.programmedKeyDigests.get(hash);
  if (known === undefined) return undefined;
  if (context.now() - known.at > KNOWN_DIGEST_TTL_MS) {
    context.programmedKeyDigests.delete(hash);
    return undefined;
  }
  return known.digest;
}

/** Returns true when the wanted document is now in the store. */
export async function writeKeyPolicy(
  context: OperatorContext,
  write: KeyPolicyWrite,
): Promise<boolean> {
  const previous = context.writtenKeyHashes.get(write.objectKey);
  if (previous !== undefined && previous !== write.hash) {
    await deleteKeyPolicyIfOwned(context, { hash: previous, keyUid: write.keyUid });
    context.writtenKeyHashes.delete(write.objectKey);
  }
  if (write.hash === null || write.policy === null) return false;
  // Recorded before the write, so a concurrent sweep never removes a document being written.
  context.writtenKeyHashes.set(write.objectKey, write.hash);
  const digest = write.policy.digest;
  if (knownDigest(context, write.hash) === digest) return true;
  const existing = write.fresh === true ? null : await context.store.getKeyPolicy(write.hash);
  if (existing?.digest !== digest) await context.store.putKeyPolicy(write.hash, write.policy);
  context.programmedKeyDigests.set(write.hash, { digest, at: context.now() });
  return true;
}
