import { describe, expect, it } from 'vitest';
import type { ClusterNotifierSpec } from '../../crds/schema/resources.js';
import type { SecretObject } from '../read-resource.js';
import { resolveNotifierTarget } from './resolve-notifier-target.js';

const webhook: ClusterNotifierSpec = {
  webhook: {
    url: 'https://hooks.example.com/tollgate',
    signingSecretRef: { name: 'hooks', key: 'signingSecret' },
  },
  events: { balanceBelow: { thresholdUSD: '5' } },
};
const reader = { kind: 'Notifier' as const, uid: 'uid-1' };
const guard = { allowLoopback: false };
const data = { signingSecret: Buffer.from('s3cret').toString('base64') };

function resolve(secret: SecretObject | undefined, who: typeof reader | null = reader) {
  return resolveNotifierTarget({
    spec: webhook,
    secretNamespace: 'team-a',
    reader: who ?? undefined,
    readSecret: () => secret,
    guard,
  });
}

describe('resolveNotifierTarget', () => {
  it('reads a Secret labelled for notifiers', () => {
    const resolved = resolve({
      metadata: { labels: { 'tollgate.dev/notifier-secret': 'true' } },
      data,
    });
    expect(resolved).toMatchObject({
      ok: true,
      target: { kind: 'webhook', signingSecret: 's3cret' },
    });
  });

  it('reads a Secret owned by the Notifier', () => {
    const resolved = resolve({
      metadata: { ownerReferences: [{ kind: 'Notifier', uid: 'uid-1', name: 'n' }] },
      data,
    });
    expect(resolved.ok).toBe(true);
  });

  it('refuses an unmarked Secret, one owned by another Notifier, or labelled other than "true"', () => {
    for (const metadata of [
      {},
      { ownerReferences: [{ kind: 'Notifier', uid: 'uid-2' }] },
      { ownerReferences: [{ kind: 'ApiKey', uid: 'uid-1' }] },
      { labels: { 'tollgate.dev/notifier-secret': 'false' } },
    ]) {
      expect(resolve({ metadata, data })).toMatchObject({ ok: false, reason: 'SecretMissing' });
    }
  });

  it('says the same for a missing Secret, a missing key and an unmarked Secret', () => {
    const missing = resolve(undefined);
    const noKey = resolve({ metadata: { labels: { 'tollgate.dev/notifier-secret': 'true' } } });
    const unmarked = resolve({ metadata: {}, data });
    expect(missing.ok).toBe(false);
    expect(noKey).toEqual(missing);
    expect(unmarked).toEqual(missing);
    expect(missing.ok ? '' : missing.message).toContain('tollgate.dev/notifier-secret');
  });

  it('reads any Secret in the operator namespace for a ClusterNotifier', () => {
    expect(resolve({ metadata: {}, data }, null).ok).toBe(true);
  });
});
