/**
 * Cloud upstreams from the operator to the gateway: the projection and the sealed credential bundle
 * opened by the gateway's upstream cache, and a running operator naming a missing Secret key in
 * the Upstream's status, then writing the document once the key is there.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstream } from '../../../crds/schema/resources.js';
import { openCredential, sealCredential } from '../../../store/seal-credential.js';
import { UpstreamCache } from '../../../gateway/upstreams/resolve-upstreams.js';
import type { UpstreamPolicy } from '../../../store/policy-documents.js';
import {
  projectUpstreamPolicy,
  resolveUpstreamCredential,
} from '../../../operator/reconcile/project-upstream-policy.js';
import type { KubeObject } from './operator-fixtures.js';
import { startHarness, waitFor, type Harness } from './operator-harness.js';

const namespace = 'tollgate-system';

function upstream(name: string, spec: Upstream['spec']): Upstream {
  return {
    apiVersion: 'tollgate.dev/v1alpha1',
    kind: 'Upstream',
    metadata: { name, generation: 1, uid: `uid-${name}` },
    spec,
  } as Upstream;
}

const bedrock = upstream('bedrock', {
  platform: 'Anthropic',
  provider: 'AWSBedrock',
  awsBedrock: { region: 'eu-west-1', endpoint: 'http://127.0.0.1:4566' },
  credentials: { type: 'AWSAccessKey', awsAccessKey: { secretRef: { name: 'aws' } } },
});

const azure = upstream('azure', {
  platform: 'OpenAI',
  provider: 'AzureOpenAI',
  azureOpenAI: { endpoint: 'https://r.openai.azure.com', apiVersion: '2024-10-21' },
  credentials: {
    type: 'AzureEntraID',
    azureEntraID: { tenantID: 'tenant', clientID: 'client', secretRef: { name: 'entra' } },
  },
  pricing: { overrides: [{ model: 'gpt-5', inputPerMTok: '2', outputPerMTok: '16' }] },
});

const vertex = upstream('vertex', {
  platform: 'Gemini',
  provider: 'GCPVertexAI',
  gcpVertexAI: { project: 'p', location: 'global' },
  credentials: { type: 'GCPWorkloadIdentity' },
});

/** The operator's projection opened by the gateway's upstream cache, as in a deployment. */
async function openedBy(policy: UpstreamPolicy) {
  const cache = new UpstreamCache({
    store: { getUpstream: () => Promise.resolve(policy) },
    credentialKey: key,
    clock: () => 0,
    refreshMs: 1000,
  });
  const [resolved] = await cache.resolve('g', [{ name: policy.name, weight: 1, priority: 0 }]);
  return resolved;
}

const key = randomBytes(32);

function sealedPolicy(resource: Upstream, data: Record<string, string> | undefined) {
  const credential = resolveUpstreamCredential(
    resource,
    data === undefined ? undefined : { namespace, data },
  );
  if (!credential.ok) throw new Error(credential.condition.message);
  const sealed = sealCredential(key, credential.plaintext);
  return projectUpstreamPolicy(resource, { plaintext: credential.plaintext, sealed });
}

describe('cloud upstream projection', () => {
  it('names the missing Secret keys of each credential type', () => {
    expect(resolveUpstreamCredential(bedrock, undefined)).toMatchObject({
      ok: false,
      condition: {
        reason: 'SecretNotFound',
        message: 'Secret aws not found in the operator namespace',
      },
    });
    expect(
      resolveUpstreamCredential(bedrock, { namespace, data: { accessKeyId: 'AKIA' } }),
    ).toMatchObject({
      ok: false,
      condition: { reason: 'SecretKeyMissing', message: 'Secret aws has no secretAccessKey' },
    });
    expect(resolveUpstreamCredential(azure, { namespace, data: {} })).toMatchObject({
      ok: false,
      condition: { reason: 'SecretKeyMissing', message: 'Secret entra has no clientSecret' },
    });
  });

  it('seals the credential bundle, keeps secrets out of the document and opens it in the gateway', async () => {
    const policy = sealedPolicy(bedrock, {
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'very-secret',
    });
    expect(JSON.stringify(policy)).not.toContain('very-secret');
    expect(policy).toMatchObject({
      credentialType: 'AWSAccessKey',
      baseURL: '',
      provider: { kind: 'AWSBedrock', region: 'eu-west-1', endpoint: 'http://127.0.0.1:4566' },
    });
    expect((await openedBy(policy))?.provider).toEqual({
      kind: 'AWSBedrock',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:4566',
      credentials: {
        type: 'AWSAccessKey',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'very-secret',
        sessionToken: null,
      },
    });
  });

  it('carries the spec half of Entra ID and web identity, and the price override', async () => {
    const policy = sealedPolicy(azure, { clientSecret: 'entra-secret' });
    expect(JSON.stringify(policy)).not.toContain('entra-secret');
    const opened = await openedBy(policy);
    expect(opened?.provider).toEqual({
      kind: 'AzureOpenAI',
      endpoint: 'https://r.openai.azure.com',
      apiVersion: '2024-10-21',
      credentials: {
        type: 'AzureEntraID',
        tenantID: 'tenant',
        clientID: 'client',
        clientSecret: 'entra-secret',
      },
    });
    expect(opened?.origin).toBe('');
    // 2 USD and 16 USD per million tokens, in nano-USD per token.
    expect(opened?.priceOverrides?.['gpt-5']).toMatchObject({ input: 2000, output: 16000 });
  });

  it('reads no Secret for workload identity', async () => {
    const policy = sealedPolicy(vertex, undefined);
    expect((await openedBy(policy))?.provider).toEqual({
      kind: 'GCPVertexAI',
      project: 'p',
      location: 'global',
      endpoint: null,
      credentials: { type: 'GCPWorkloadIdentity' },
    });
  });

  it('keeps a Direct upstream document free of the new fields', () => {
    const direct = upstream('direct', {
      platform: 'OpenAI',
      provider: 'Direct',
      baseURL: 'https://api.openai.com',
      credentials: { type: 'APIKey', apiKey: { secretRef: { name: 's', key: 'k' } } },
    });
    const policy = sealedPolicy(direct, { k: 'sk-1' });
    expect(policy).not.toHaveProperty('provider');
    expect(policy).not.toHaveProperty('priceOverrides');
  });
});

describe('the operator with a cloud upstream', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({});
    await harness.startOperator('operator-cloud');
  });

  afterAll(async () => {
    await harness.close();
  });

  it('names a missing Secret key in the status, then seals the bundle once it is there', async () => {
    const secret = (data: string) =>
      `apiVersion: v1\nkind: Secret\nmetadata: { name: aws-keys, namespace: tollgate-system }\nstringData: ${data}\n`;
    await harness.apply(
      `${secret('{ accessKeyId: AKIAEXAMPLE }')}---
apiVersion: tollgate.dev/v1alpha1
kind: Upstream
metadata: { name: bedrock-east }
spec:
  platform: Anthropic
  provider: AWSBedrock
  awsBedrock: { region: us-east-1 }
  credentials: { type: AWSAccessKey, awsAccessKey: { secretRef: { name: aws-keys } } }
`,
    );
    const refs = async () => {
      const object = await harness.getJson<KubeObject>(['upstream', 'bedrock-east']);
      return object.status?.conditions?.find((condition) => condition.type === 'ResolvedRefs');
    };
    const missing = await waitFor('SecretKeyMissing', async () => {
      const condition = await refs();
      return condition?.reason === 'SecretKeyMissing' ? condition : undefined;
    });
    expect(missing).toMatchObject({
      status: 'False',
      message: 'Secret aws-keys has no secretAccessKey',
    });
    expect(await harness.store.getUpstream('bedrock-east')).toBeNull();
    await harness.apply(
      secret('{ accessKeyId: AKIAEXAMPLE, secretAccessKey: aws-secret, sessionToken: session }'),
    );
    const policy = await waitFor(
      'the upstream document',
      async () => (await harness.store.getUpstream('bedrock-east')) ?? undefined,
    );
    expect(policy.provider).toEqual({ kind: 'AWSBedrock', region: 'us-east-1', endpoint: null });
    expect(policy.sealedCredential).not.toContain('aws-secret');
    expect(JSON.parse(openCredential(harness.credentialKey, policy.sealedCredential))).toEqual({
      type: 'AWSAccessKey',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'aws-secret',
      sessionToken: 'session',
    });
    expect((await refs())?.status).toBe('True');
  });
});
