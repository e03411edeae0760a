/**
 * Google Vertex AI as an upstream provider for the Anthropic and Gemini platforms: the call goes
 * to the Upstream's project and location (`map-vertex-call.ts`) with a Google access token from
 * its service account key or from the GKE metadata server (`vertex-token-cache.ts`, one cache for
 * every upstream the gateway serves). Replies are first-party bytes already (Claude's Messages
 * JSON and SSE from `rawPredict` / `streamRawPredict`, Gemini's JSON and SSE), but for the
 * `vertex_event` events of a Claude stream, dropped (`drop-vertex-events.ts`); Vertex's own
 * refusals are put in the platform's error shape (`map-vertex-error.ts`).
 */
import { GatewayError } from '../../errors/gateway-error.js';
import type { GCPCredentials, ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type {
  PreparedCall,
  ProviderCall,
  ProviderFactoryOptions,
  ReplyDecoder,
  UpstreamProvider,
} from '../../spec/upstream-provider.js';
import { createVertexEventDropper } from './drop-vertex-events.js';
import {
  mapAnthropicCall,
  mapGeminiCall,
  vertexAddress,
  type VertexAddress,
  type VertexRequestParts,
} from './map-vertex-call.js';
import { mapVertexError } from './map-vertex-error.js';
import { VertexTokenCache } from './vertex-token-cache.js';

export interface GcpVertexAiProviderOptions extends ProviderFactoryOptions {
  /** A token is refreshed this long before it expires. Default 60 s. */
  refreshMarginMs?: number;
  /** Bound on one token request. Default 10 s. */
  tokenTimeoutMs?: number;
}

interface VertexUpstreamSettings {
  project: string;
  location: string;
  endpoint: string | null;
  credentials: GCPCredentials;
}

function vertexSettings(upstream: ResolvedUpstream): VertexUpstreamSettings {
  const { provider } = upstream;
  if (provider.kind !== 'GCPVertexAI') {
    throw new GatewayError('TG_INTERNAL', {
      detail: `(upstream ${upstream.name} is not a GCPVertexAI upstream)`,
    });
  }
  return provider;
}

function mapCall(call: ProviderCall, settings: VertexUpstreamSettings): VertexRequestParts {
  switch (call.platform) {
    case 'Anthropic':
      return mapAnthropicCall(call, settings);
    case 'Gemini':
      return mapGeminiCall(call, settings);
    case 'OpenAI':
    case 'Antigravity':
      throw new GatewayError('TG_INTERNAL', {
        detail: `(Vertex AI does not serve the ${call.platform} platform)`,
      });
  }
}

export function createGcpVertexAiProvider(options: GcpVertexAiProviderOptions): UpstreamProvider {
  const tokens = new VertexTokenCache({
    clock: options.clock,
    // GCE_METADATA_HOST, read once from the gateway's config.
    metadataHost: options.endpoints.gceMetadata,
    ...(options.refreshMarginMs === undefined ? {} : { refreshMarginMs: options.refreshMarginMs }),
    ...(options.tokenTimeoutMs === undefined ? {} : { timeoutMs: options.tokenTimeoutMs }),
  });
  // The address of an upstream's settings, worked out once (an endpoint is a URL to parse).
  const addresses = new WeakMap<object, VertexAddress>();
  const addressOf = (settings: VertexUpstreamSettings): VertexAddress => {
    let address = addresses.get(settings);
    if (address === undefined) {
      address = vertexAddress(settings);
      addresses.set(settings, address);
    }
    return address;
  };

  return {
    async prepare(call, upstream): Promise<PreparedCall> {
      const settings = vertexSettings(upstream);
      const parts = mapCall(call, settings);
      const address = addressOf(settings);
      const token = await tokens.accessToken(settings.credentials);
      return {
        origin: address.origin,
        path: `${address.basePath}${parts.path}`,
        method: call.method,
        headers: {
          ...call.headers,
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: parts.body,
      };
    },

    decodeReply(call, reply): ReplyDecoder | null {
      const isClaudeStream =
        call.platform === 'Anthropic' &&
        call.stream &&
        reply.status < 300 &&
        reply.contentType.toLowerCase().startsWith('text/event-stream');
      return isClaudeStream ? createVertexEventDropper() : null;
    },

    mapError(call, reply) {
      if (call.platform !== 'Anthropic' && call.platform !== 'Gemini') return null;
      return mapVertexError(call.platform, reply);
    },

    invalidate(upstream) {
      const { provider } = upstream;
      if (provider.kind === 'GCPVertexAI') tokens.forget(provider.credentials);
    },
  };
}
