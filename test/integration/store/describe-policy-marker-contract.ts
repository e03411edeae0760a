/**
 * Contract: the policy cache's generation marker. Absent in a store never programmed; written only
 * by the commit of the full program that is still in progress (a program begun later, or the loss
 * of the store's data meanwhile, makes the earlier commit fail); and the bulk write of key
 * documents stores and indexes every one of them.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StoreHolder } from './store-under-test.js';
import { keyPolicy } from './store-fixtures.js';

export function describePolicyMarkerContract(holder: StoreHolder): void {
  describe('policy generation marker', () => {
    it('is absent until a program commits, then holds its generation', async () => {
      const { store } = holder;
      expect(await store.readPolicyMarker()).toBeNull();
      await store.beginPolicyReload('first');
      // In progress: still absent (documents read now may be missing only for the moment).
      expect(await store.readPolicyMarker()).toBeNull();
      expect(await store.commitPolicyReload('first')).toBe(true);
      expect(await store.readPolicyMarker()).toBe('first');
      // Committed once: the same generation cannot commit again.
      expect(await store.commitPolicyReload('first')).toBe(false);
    });

    it('commits only the program begun last; the marker stays until then', async () => {
      const { store } = holder;
      await store.beginPolicyReload('older');
      await store.beginPolicyReload('newer');
      expect(await store.commitPolicyReload('older')).toBe(false);
      expect(await store.readPolicyMarker()).toBe('first');
      expect(await store.commitPolicyReload('newer')).toBe(true);
      expect(await store.readPolicyMarker()).toBe('newer');
    });

    it('writes and indexes many key documents at once', async () => {
      const { store } = holder;
      const entries = Array.from({ length: 1_200 }, (_, index) => ({
        keyHash: randomBytes(32).toString('hex'),
        policy: keyPolicy({ digest: `bulk-${String(index)}` }),
      }));
      await store.putKeyPolicies(entries);
      await store.putKeyPolicies([]);
      const digests = await store.listKeyPolicyDigests();
      for (const { keyHash, policy } of entries) {
        expect(digests.get(keyHash)).toBe(policy.digest);
      }
      const sample = entries[700];
      expect(await store.getKeyPolicy(sample?.keyHash ?? '')).toEqual(sample?.policy);
    });
  });
}
