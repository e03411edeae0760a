/** The operator scenarios, run once per store kind (memory, Redis). */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKeyValue } from '../../../store/hash-key-value.js';
import { openCredential } from '../../../store/seal-credential.js';
import type { RunningOperator } from '../../../operator/start-operator.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

import { GROUP, UPSTREAM, account, apiKey, decode, type KubeObject } from './operator-fixtures.js';

export function describeOperatorScenarios(storeKind: 'memory' | 'redis', redisUrl: () => string) {
  describe(`operator with the ${storeKind} store`, () => {
    let harness: Harness;
    let operator: RunningOperator;

    const ready = async (namespace: string, name: string) => {
      const object = await harness.getJson<KubeObject>(['apikey', name, '-n', namespace]);
      return object.status?.conditions?.find((condition) => condition.type === 'Ready');
    };
    const waitReason = (namespace: string, name: string, reason: string, timeoutMs = 10_000) =>
      waitFor(
        `${namespace}/${name} Ready reason ${reason}`,
        async () => {
          const condition = await ready(namespace, name);
          return condition?.reason === reason ? condition : undefined;
        },
        timeoutMs,
      );
    const keyHashOf = async (namespace: string, secretName: string) => {
      const secret = await harness.getJson<KubeObject>(['secret', secretName, '-n', namespace]);
      return hashKeyValue(harness.pepper, decode(secret));
    };

    beforeAll(async () => {
      harness = await startHarness(storeKind === 'redis' ? { redisUrl: redisUrl() } : {});
      await harness.apply(
        ['team-a', 'team-b']
          .map((namespace) => `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${namespace} }\n`)
          .join('---\n'),
      );
      await harness.apply(UPSTREAM + '---' + GROUP + '---' + account('team-a'));
      operator = await harness.startOperator('operator-a');
      await waitFor('operator-a to lead', () => Promise.resolve(operator.isLeader() || undefined));
    });

    afterAll(async () => {
      await harness.close();
    });

    it('generates a key Secret, becomes Ready with a hint, and writes only the hash', async () => {
      await harness.apply(apiKey('team-a', 'generated'));
      const condition = await waitReason('team-a', 'generated', 'Active');
      expect(condition.status).toBe('True');
      const key = await harness.getJson<KubeObject>(['apikey', 'generated', '-n', 'team-a']);
      const secret = await harness.getJson<KubeObject>(['secret', 'generated-key', '-n', 'team-a']);
      const value = decode(secret);
      expect(value).toMatch(/^sk-tg-[A-Za-z0-9]{40}$/);
      expect(secret.type).toBe('tollgate.dev/api-key');
      expect(secret.metadata.labels?.['tollgate.dev/api-key-name']).toBe('generated');
      expect(secret.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'ApiKey', uid: key.metadata.uid, controller: true }),
      ]);
      expect(key.status?.keyHint).toBe(`sk-tg-…${value.slice(-4)}`);
      expect(key.metadata.finalizers).toContain('tollgate.dev/finalizer');
      const policy = await harness.store.getKeyPolicy(hashKeyValue(harness.pepper, value));
      expect(policy).toMatchObject({
        keyUid: key.metadata.uid,
        state: 'Active',
        group: {
          name: 'claude',
          platform: 'Anthropic',
          multiplier: { numerator: 3, denominator: 2 },
        },
      });
      expect(JSON.stringify(policy)).not.toContain(value);
      const status = key.status as { usage?: { usedUSD?: string; observedTime?: string } };
      expect(status.usage?.usedUSD).toBe('0');
      expect(status.usage?.observedTime).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(key.status?.observedGeneration).toBe(1);
      expect(await harness.store.getAccount('team-a')).toMatchObject({
        creditNano: 100_000_000_000,
      });
    });

    it('suspends within 2 s', async () => {
      await harness.apply(apiKey('team-a', 'pausable'));
      await waitReason('team-a', 'pausable', 'Active');
      const started = Date.now();
      await harness.kubectl([
        'patch',
        'apikey',
        'pausable',
        '-n',
        'team-a',
        '--type=merge',
        '-p',
        '{"spec":{"suspend":true}}',
      ]);
      const condition = await waitReason('team-a', 'pausable', 'Suspended', 2_000);
      expect(condition.status).toBe('False');
      expect(Date.now() - started).toBeLessThan(2_000);
      const policy = await harness.store.getKeyPolicy(await keyHashOf('team-a', 'pausable-key'));
      expect(policy?.suspended).toBe(true);
    });

    it('expires on time with no request arriving', async () => {
      const expiresAt = new Date(Date.now() + 3_000);
      await harness.apply(
        apiKey('team-a', 'short-lived', `  expirationTime: "${expiresAt.toISOString()}"`),
      );
      await waitReason('team-a', 'short-lived', 'Active');
      const condition = await waitReason('team-a', 'short-lived', 'Expired', 6_000);
      const seen = Date.now();
      expect(seen).toBeGreaterThanOrEqual(expiresAt.getTime());
      expect(seen - expiresAt.getTime()).toBeLessThan(2_000);
      expect(condition.status).toBe('False');
    });

    it('refuses a 15-character chosen value with a clear message', async () => {
      await harness.apply(`
apiVersion: v1
kind: Secret
metadata: { name: chosen, namespace: team-a }
stringData: { apiKey: abcdefghijklmno }
---
${apiKey('team-a', 'too-short', '  secretName: chosen')}`);
      const condition = await waitReason('team-a', 'too-short', 'InvalidKey');
      expect(condition.message).toMatch(/15 characters long; at least 16/);
      expect(condition.message).not.toContain('abcdefghijklmno');
      const secret = await harness.getJson<KubeObject>(['secret', 'chosen', '-n', 'team-a']);
      expect(decode(secret)).toBe('abcdefghijklmno');
    });

    it('marks a key of a namespace without Account NoAccount', async () => {
      await harness.apply(apiKey('team-b', 'orphan'));
      const condition = await waitReason('team-b', 'orphan', 'NoAccount');
      expect(condition.status).toBe('False');
    });

    it('makes the later of two keys with one value DuplicateKey', async () => {
      await harness.apply(`
apiVersion: v1
kind: Secret
metadata: { name: shared, namespace: team-a }
stringData: { apiKey: shared-value-0123456789 }
---
${apiKey('team-a', 'first-owner', '  secretName: shared')}`);
      await waitReason('team-a', 'first-owner', 'Active');
      await harness.apply(apiKey('team-a', 'second-owner', '  secretName: shared'));
      await waitReason('team-a', 'second-owner', 'DuplicateKey');
      const policy = await harness.store.getKeyPolicy(
        hashKeyValue(harness.pepper, 'shared-value-0123456789'),
      );
      const first = await harness.getJson<KubeObject>(['apikey', 'first-owner', '-n', 'team-a']);
      expect(policy?.keyUid).toBe(first.metadata.uid);
    });

    it('rotates the key when the Secret value changes', async () => {
      await harness.apply(`
apiVersion: v1
kind: Secret
metadata: { name: rotating, namespace: team-a }
stringData: { apiKey: first-value-0123456789 }
---
${apiKey('team-a', 'rotated', '  secretName: rotating')}`);
      await waitReason('team-a', 'rotated', 'Active');
      const oldHash = hashKeyValue(harness.pepper, 'first-value-0123456789');
      const newHash = hashKeyValue(harness.pepper, 'second-value-0123456789');
      expect(await harness.store.getKeyPolicy(oldHash)).not.toBeNull();
      await harness.apply(`
apiVersion: v1
kind: Secret
metadata: { name: rotating, namespace: team-a }
stringData: { apiKey: second-value-0123456789 }
`);
      await waitFor(
        'the new hash',
        async () => (await harness.store.getKeyPolicy(newHash)) ?? undefined,
        5_000,
      );
      expect(await harness.store.getKeyPolicy(oldHash)).toBeNull();
      const key = await harness.getJson<KubeObject>(['apikey', 'rotated', '-n', 'team-a']);
      expect(key.status?.keyHint).toBe('second…6789');
    });

    it('handles a reset-quota token once and records it', async () => {
      await harness.apply(apiKey('team-a', 'resettable'));
      await waitReason('team-a', 'resettable', 'Active');
      await harness.kubectl([
        'annotate',
        'apikey',
        'resettable',
        '-n',
        'team-a',
        'tollgate.dev/reset-quota=token-1',
      ]);
      const key = await waitFor('lastHandledQuotaReset', async () => {
        const object = await harness.getJson<KubeObject>(['apikey', 'resettable', '-n', 'team-a']);
        return object.status?.lastHandledQuotaReset === 'token-1' ? object : undefined;
      });
      const counters = await harness.store.keyCounters('team-a', key.metadata.uid, Date.now());
      expect(counters.lastQuotaResetToken).toBe('token-1');
      expect(await harness.store.resetQuota('team-a', key.metadata.uid, 'token-1')).toBe(false);
    });

    it('turns keys GroupNotFound when their Group is deleted, and back when it returns', async () => {
      await harness.apply(GROUP.replace('name: claude', 'name: temporary'));
      await harness.apply(
        apiKey('team-a', 'grouped').replace('groupName: claude', 'groupName: temporary'),
      );
      await waitReason('team-a', 'grouped', 'Active');
      await harness.kubectl(['delete', 'group', 'temporary']);
      await waitReason('team-a', 'grouped', 'GroupNotFound');
      expect(await harness.store.getGroup('temporary')).toBeNull();
      const policy = await harness.store.getKeyPolicy(await keyHashOf('team-a', 'grouped-key'));
      expect(policy).toMatchObject({ state: 'GroupNotFound', group: null });
      await harness.apply(GROUP.replace('name: claude', 'name: temporary'));
      await waitReason('team-a', 'grouped', 'Active');
    });

    it('refuses keys of namespaces a Selector group does not allow, by Namespace labels', async () => {
      await harness.apply(`
apiVersion: tollgate.dev/v1alpha1
kind: Group
metadata: { name: gold-only }
spec:
  platform: Anthropic
  allowedNamespaces: { from: Selector, selector: { matchLabels: { tier: gold } } }
`);
      await harness.apply(
        apiKey('team-a', 'selective').replace('groupName: claude', 'groupName: gold-only'),
      );
      const condition = await waitReason('team-a', 'selective', 'GroupNotPermitted');
      expect(condition.message).toContain('team-a');
      await harness.kubectl(['label', 'namespace', 'team-a', 'tier=gold']);
      await waitReason('team-a', 'selective', 'Active');
    });

    it('removes the policy at once when the ApiKey is deleted', async () => {
      await harness.apply(apiKey('team-a', 'doomed'));
      await waitReason('team-a', 'doomed', 'Active');
      const hash = await keyHashOf('team-a', 'doomed-key');
      expect(await harness.store.getKeyPolicy(hash)).not.toBeNull();
      await harness.kubectl(['delete', 'apikey', 'doomed', '-n', 'team-a', '--timeout=10s']);
      expect(await harness.store.getKeyPolicy(hash)).toBeNull();
    });

    it('seals the upstream credential and reports Group and Upstream conditions', async () => {
      const upstream = await waitFor(
        'upstream in the store',
        async () => (await harness.store.getUpstream('anthropic-main')) ?? undefined,
      );
      expect(upstream.sealedCredential).not.toContain('upstream-secret-value');
      expect(JSON.parse(openCredential(harness.credentialKey, upstream.sealedCredential))).toEqual({
        apiKey: 'upstream-secret-value',
      });
      await harness.apply(`
apiVersion: tollgate.dev/v1alpha1
kind: Upstream
metadata: { name: no-secret }
spec:
  platform: OpenAI
  baseURL: http://127.0.0.1:9
  credentials: { type: APIKey, apiKey: { secretRef: { name: missing, key: apiKey } } }
---
apiVersion: tollgate.dev/v1alpha1
kind: Group
metadata: { name: mixed }
spec:
  platform: Anthropic
  upstreamRefs: [{ name: anthropic-main }, { name: no-secret }]
`);
      const refsOf = async (kind: string, name: string) => {
        const object = await harness.getJson<KubeObject>([kind, name]);
        return object.status?.conditions?.find((condition) => condition.type === 'ResolvedRefs');
      };
      const upstreamRefs = await waitFor('SecretNotFound', async () => {
        const condition = await refsOf('upstream', 'no-secret');
        return condition?.reason === 'SecretNotFound' ? condition : undefined;
      });
      expect(upstreamRefs.status).toBe('False');
      const groupRefs = await waitFor('PlatformMismatch', async () => {
        const condition = await refsOf('group', 'mixed');
        return condition?.reason === 'PlatformMismatch' ? condition : undefined;
      });
      expect(groupRefs.message).toContain('no-secret (OpenAI)');
      const account = await harness.getJson<KubeObject>(['account', 'default', '-n', 'team-a']);
      expect(account.status).toMatchObject({ spentUSD: '0', balanceUSD: '100' });
    });

    it('exports metrics on its own registry', async () => {
      const text = await operator.metrics.registry.metrics();
      expect(text).toMatch(
        /tollgate_operator_reconcile_total\{kind="ApiKey",result="success"\} \d+/,
      );
      expect(text).toMatch(/tollgate_operator_watch_events_total\{kind="ApiKey",type="add"\} \d+/);
      expect(text).toContain('tollgate_operator_leader 1');
      expect(text).toMatch(/tollgate_operator_account_spent_usd\{namespace="team-a"\} 0/);
      const response = await request(`http://127.0.0.1:${operator.metricsPort ?? 0}/metrics`);
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toContain('tollgate_operator_queue_depth');
    });

    it('settles: status writes do not trigger further reconciles', async () => {
      await operator.whenIdle();
      const count = async () => {
        const metric = await operator.metrics.reconciles.get();
        return metric.values.reduce((sum, value) => sum + value.value, 0);
      };
      await new Promise((resolve) => setTimeout(resolve, 600));
      const before = await count();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await count()).toBe(before);
    });

    it('lets exactly one of two operators act; the other takes over when the first stops', async () => {
      const second = await harness.startOperator('operator-b');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(operator.isLeader()).toBe(true);
      expect(second.isLeader()).toBe(false);
      const secondText = await second.metrics.registry.metrics();
      expect(secondText).not.toMatch(/tollgate_operator_reconcile_total\{/);
      // A document no ApiKey projects (as if a key were rotated while no operator ran).
      const live = await harness.store.getKeyPolicy(await keyHashOf('team-a', 'generated-key'));
      const staleHash = 'f'.repeat(64);
      await harness.store.putKeyPolicy(staleHash, { ...live!, keyUid: 'gone', digest: 'stale' });
      await operator.close();
      await waitFor(
        'operator-b to lead',
        () => Promise.resolve(second.isLeader() || undefined),
        4_000,
      );
      await waitFor('the stale document to be swept', async () =>
        (await harness.store.getKeyPolicy(staleHash)) === null ? true : undefined,
      );
      expect(
        await harness.store.getKeyPolicy(await keyHashOf('team-a', 'generated-key')),
      ).not.toBeNull();
      await harness.apply(apiKey('team-a', 'after-failover'));
      await waitReason('team-a', 'after-failover', 'Active');
      expect(await second.metrics.registry.metrics()).toMatch(
        /tollgate_operator_reconcile_total\{kind="ApiKey",result="success"\} \d+/,
      );
    });
  });
}
