/**
 * Shared setup of the AWS Bedrock suites: a memory store, a fake Bedrock that checks SigV4 with the
 * AWS SDK's signer (test/support/fake-bedrock.ts), a fake STS, the simulator as a first-party
 * (Direct) upstream, the gateway on a real port, and helpers that write Bedrock upstreams (sealed
 * credentials and the provider block, as the operator projects them) and keys.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { AWSCredentials } from '../../../gateway/spec/resolved-upstream.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { ModelPrice, UpstreamRef } from '../../../store/policy-documents.js';
import type { Store } from '../../../store/store.js';
import { putCloudUpstream } from '../../support/cloud-upstreams.js';
import { startFakeSts, type FakeSts } from '../../support/fake-aws-sts.js';
import { startFakeBedrock, type FakeBedrock } from '../../support/fake-bedrock.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  putApiKeyUpstream,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';

export const REGION = 'us-west-2';
export const KEYS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
export const ROLE_ARN = 'arn:aws:iam::123456789012:role/tollgate-bedrock';
export const SONNET_ON_BEDROCK = 'us.anthropic.claude-sonnet-4-6-v1:0';

export interface BedrockEnvironment {
  store: Store;
  bedrock: FakeBedrock;
  /** Reports usage only in `amazon-bedrock-invocationMetrics`. */
  metricsOnly: FakeBedrock;
  sts: FakeSts;
  direct: FakeProvider;
  app: FastifyInstance;
  base: string;
  tokenFile: string;
}

export const env = {} as BedrockEnvironment;
export const secrets = newSecrets();
export const namespace = 'team-bedrock';

export async function putBedrockUpstream(options: {
  endpoint: string;
  credentials: AWSCredentials;
  modelOverrides?: Record<string, string>;
  priceOverrides?: Record<string, ModelPrice>;
}): Promise<string> {
  const name = `bedrock-${randomUUID().slice(0, 8)}`;
  await putCloudUpstream(env.store, secrets, {
    name,
    platform: 'Anthropic',
    provider: {
      kind: 'AWSBedrock',
      region: REGION,
      endpoint: options.endpoint,
      credentials: options.credentials,
    },
    modelOverrides: options.modelOverrides ?? { 'claude-sonnet-4-6': SONNET_ON_BEDROCK },
    ...(options.priceOverrides === undefined ? {} : { priceOverrides: options.priceOverrides }),
  });
  return name;
}

export function staticKeys(): Extract<AWSCredentials, { type: 'AWSAccessKey' }> {
  return { type: 'AWSAccessKey', ...KEYS, sessionToken: null };
}

export async function putDirectUpstream(): Promise<string> {
  const name = `direct-${randomUUID().slice(0, 8)}`;
  await putApiKeyUpstream(env.store, secrets, {
    name,
    platform: 'Anthropic',
    baseURL: env.direct.url,
  });
  return name;
}

export async function bedrockKey(upstreams: UpstreamRef[]): Promise<string> {
  const created = await createKey(env.store, secrets, {
    platform: 'Anthropic',
    namespace,
    upstreams,
  });
  return created.value;
}

export function useBedrockGateway(): void {
  beforeAll(async () => {
    env.store = await openStore('memory', '');
    env.bedrock = await startFakeBedrock({ region: REGION, credentials: [KEYS] });
    env.metricsOnly = await startFakeBedrock({
      region: REGION,
      credentials: [KEYS],
      omitStreamUsage: true,
    });
    const folder = mkdtempSync(join(tmpdir(), 'tollgate-irsa-'));
    env.tokenFile = join(folder, 'token');
    writeFileSync(env.tokenFile, 'eyJhbGciOiJSUzI1NiJ9.projected.token');
    env.sts = await startFakeSts({
      roleARN: ROLE_ARN,
      token: 'eyJhbGciOiJSUzI1NiJ9.projected.token',
      lifetimeMs: 3_600_000,
      onIssue: (issued) => {
        env.bedrock.accept(issued);
      },
    });
    env.direct = await startFakeProvider({ keepRequests: 1_000 });
    await writeUpstreams(env.store, { secrets, baseURL: env.direct.url });
    await writeAccount(env.store, namespace);
    env.app = buildGateway(env.store, secrets, {
      config: {
        providerEndpoints: { awsSts: env.sts.url, gceMetadata: null, azureAuthority: null },
      },
    });
    env.base = await env.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await env.app.close();
    await Promise.all([
      env.bedrock.close(),
      env.metricsOnly.close(),
      env.sts.close(),
      env.direct.close(),
    ]);
    await env.store.close();
  });
}
