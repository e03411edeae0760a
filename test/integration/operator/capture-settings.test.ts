/**
 * `spec.capture` from the resources to the gateway's key documents, with the real local control
 * plane, `kubectl` and a running operator: the key's fields over its group's, defaults for the
 * rest, nothing for keys without capture in effect, a group change re-projected into its keys, and
 * the CRD's bounds enforced by the API server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKeyValue } from '../../../store/hash-key-value.js';
import type { KeyPolicy } from '../../../store/policy-documents.js';
import { UPSTREAM, account, apiKey, decode, type KubeObject } from './operator-fixtures.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

const groupWithCapture = (capture: string) => `
apiVersion: tollgate.dev/v1alpha1
kind: Group
metadata: { name: claude }
spec:
  platform: Anthropic
  upstreamRefs: [{ name: anthropic-main }]
  capture: ${capture}
`;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({});
  await harness.apply('apiVersion: v1\nkind: Namespace\nmetadata: { name: team-c }\n');
  await harness.apply(
    `${UPSTREAM}---${groupWithCapture('{ responses: true, maxBytes: 4096 }')}---${account('team-c')}`,
  );
  await harness.startOperator('operator-capture');
  await harness.apply(
    apiKey('team-c', 'own-settings', '  capture: { requests: true, retentionDays: 30 }\n') +
      '---' +
      apiKey('team-c', 'group-settings'),
  );
});

afterAll(async () => {
  await harness.close();
});

/** The key's document once `check` holds for it. */
async function policyOf(name: string, check: (policy: KeyPolicy) => boolean): Promise<KeyPolicy> {
  return waitFor(`the key document of ${name}`, async () => {
    const secret = await harness.getJson<KubeObject>(['secret', `${name}-key`, '-n', 'team-c']);
    const policy = await harness.store.getKeyPolicy(hashKeyValue(harness.pepper, decode(secret)));
    return policy !== null && check(policy) ? policy : undefined;
  });
}

describe('spec.capture', () => {
  it("projects the key's fields over the group's, with the defaults for the rest", async () => {
    const own = await policyOf('own-settings', (policy) => policy.state === 'Active');
    expect(own.capture).toEqual({
      requests: true,
      responses: true,
      maxBytes: 4096,
      retentionDays: 30,
    });
    const inherited = await policyOf('group-settings', (policy) => policy.state === 'Active');
    expect(inherited.capture).toEqual({
      requests: false,
      responses: true,
      maxBytes: 4096,
      retentionDays: 7,
    });
  });

  it('re-projects the keys when the group changes; no capture in effect, no field', async () => {
    await harness.apply(groupWithCapture('{ responses: false }'));
    const own = await policyOf('own-settings', (policy) => policy.capture?.responses === false);
    expect(own.capture).toEqual({
      requests: true,
      responses: false,
      maxBytes: 65_536,
      retentionDays: 30,
    });
    const inherited = await policyOf('group-settings', (policy) => policy.capture === undefined);
    expect(inherited).not.toHaveProperty('capture');
  });

  it('refuses settings out of bounds', async () => {
    await expect(
      harness.apply(apiKey('team-c', 'too-small', '  capture: { maxBytes: 100 }\n')),
    ).rejects.toThrow(/maxBytes/);
    await expect(
      harness.apply(apiKey('team-c', 'too-long', '  capture: { retentionDays: 365 }\n')),
    ).rejects.toThrow(/retentionDays/);
  });
});
