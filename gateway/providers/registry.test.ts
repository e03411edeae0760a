import { describe, expect, it } from 'vitest';
import type { ResolvedUpstream } from '../spec/resolved-upstream.js';
import type { ProviderCall } from '../spec/upstream-provider.js';
import { apiKeyCredentials } from '../upstreams/upstream-credentials.js';
import { createProviderRegistry, unavailableProvider } from './registry.js';

const registry = createProviderRegistry({
  credentials: apiKeyCredentials,
  endpoints: { awsSts: null, gceMetadata: null, azureAuthority: null },
  clock: () => 0,
});

const upstream = {
  name: 'primary',
  platform: 'Anthropic',
  origin: 'https://api.example.com',
  basePath: '/proxy',
  credential: 'sk-1',
  oauth: null,
  provider: { kind: 'Direct' },
} as ResolvedUpstream;

function call(): ProviderCall {
  return {
    platform: 'Anthropic',
    method: 'POST',
    path: '/v1/messages?beta=true',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{}'),
    stream: false,
    model: 'claude',
    adapter: {
      applyCredential: (headers, credential) => {
        headers['x-api-key'] = credential;
      },
    },
  };
}

describe('provider registry', () => {
  it('sends Direct calls to the baseURL with the adapter credential, the body untouched', async () => {
    const direct = call();
    const prepared = await registry.Direct.prepare(direct, upstream);
    expect(prepared).toEqual({
      origin: 'https://api.example.com',
      path: '/proxy/v1/messages?beta=true',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-1' },
      body: direct.body,
    });
    expect(prepared.body).toBe(direct.body);
    expect(prepared.headers).toBe(direct.headers);
    expect(registry.Direct.decodeReply(direct, { status: 200, contentType: 'x' })).toBeNull();
  });

  it('refuses calls for a provider not in this build, naming it and the upstream', async () => {
    await expect(unavailableProvider('AWSBedrock').prepare(call(), upstream)).rejects.toThrow(
      'upstream primary: provider AWSBedrock is not available in this gateway',
    );
  });

  it('has the AWS Bedrock provider, which serves only AWS Bedrock upstreams', async () => {
    await expect(registry.AWSBedrock.prepare(call(), upstream)).rejects.toThrow(
      '(not an AWS Bedrock upstream)',
    );
  });

  it('has the Vertex AI provider, which serves only Vertex AI upstreams', async () => {
    await expect(registry.GCPVertexAI.prepare(call(), upstream)).rejects.toThrow(
      'upstream primary is not a GCPVertexAI upstream',
    );
  });
});
