/**
 * Which provider serves an upstream, by `ResolvedUpstream.provider.kind`: one instance per kind,
 * built once with the gateway's credentials source, provider endpoints and clock (token caches
 * live in the instances). A provider whose implementation is not part of this build refuses every
 * call with an error naming it; the attempt fails as a connect failure does and the call fails
 * over to the next upstream.
 */
import type { ProviderKind } from '../spec/resolved-upstream.js';
import type { ProviderEndpoints, UpstreamProvider } from '../spec/upstream-provider.js';
import type { UpstreamCredentials } from '../upstreams/upstream-credentials.js';
import { createAwsBedrockProvider } from './aws-bedrock/create-aws-bedrock-provider.js';
import { createAzureOpenAIProvider } from './azure-openai/create-azure-openai-provider.js';
import { createDirectProvider } from './direct/create-direct-provider.js';
import { createGcpVertexAiProvider } from './gcp-vertex-ai/create-gcp-vertex-ai-provider.js';

export interface ProviderRegistryOptions {
  credentials: UpstreamCredentials;
  endpoints: ProviderEndpoints;
  clock: () => number;
}

export type ProviderRegistry = Readonly<Record<ProviderKind, UpstreamProvider>>;

/** A provider not in this build: every call refused, naming it. */
export function unavailableProvider(kind: ProviderKind): UpstreamProvider {
  return {
    prepare: (_call, upstream) =>
      Promise.reject(
        new Error(`upstream ${upstream.name}: provider ${kind} is not available in this gateway`),
      ),
    decodeReply: () => null,
  };
}

export function createProviderRegistry(options: ProviderRegistryOptions): ProviderRegistry {
  const factory = { endpoints: options.endpoints, clock: options.clock };
  return Object.freeze({
    Direct: createDirectProvider({ credentials: options.credentials }),
    AWSBedrock: createAwsBedrockProvider(factory),
    GCPVertexAI: createGcpVertexAiProvider(factory),
    AzureOpenAI: createAzureOpenAIProvider(factory),
  });
}
