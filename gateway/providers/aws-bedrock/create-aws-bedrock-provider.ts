/**
 * The AWS Bedrock provider for the Anthropic platform: each `/v1/messages` call becomes
 * InvokeModel (a reply already in the Messages JSON shape) or InvokeModelWithResponseStream (an
 * event stream re-emitted as Anthropic SSE), and `/v1/messages/count_tokens` becomes CountTokens
 * (its `{inputTokens}` turned into `{input_tokens}`; where CountTokens is not available, the local
 * estimate, estimate-tokens-locally.ts), on `bedrock-runtime.<region>.amazonaws.com`
 * or the Upstream's `endpoint`, signed with SigV4 (service `bedrock`). Error replies and
 * exceptions take the Anthropic error shape (map-bedrock-error.ts).
 */
import { GatewayError } from '../../errors/gateway-error.js';
import type { ProviderSettings, ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type {
  PreparedCall,
  ProviderCall,
  ProviderFactoryOptions,
  ReplyDecoder,
  UpstreamProvider,
} from '../../spec/upstream-provider.js';
import { AwsCredentialCache } from './cache-aws-credentials.js';
import { CountTokensReplyDecoder } from './decode-count-tokens-reply.js';
import { AnthropicStreamEmitter } from './emit-anthropic-stream.js';
import { mapBedrockError } from './map-bedrock-error.js';
import { mapBedrockRequest } from './map-bedrock-request.js';
import { countTokensUnavailable, localTokenEstimate } from './estimate-tokens-locally.js';
import { signAwsRequest, SigningKeyCache } from './sign-aws-request.js';

/** `endpoints.awsSts` (`AWS_ENDPOINT_URL_STS`) replaces the regional STS endpoint. */
export type AwsBedrockProviderOptions = Pick<ProviderFactoryOptions, 'clock'> & {
  endpoints: Pick<ProviderFactoryOptions['endpoints'], 'awsSts'>;
};

type BedrockSettings = Extract<ProviderSettings, { kind: 'AWSBedrock' }>;

/** The signing name of Bedrock's runtime API. */
export const BEDROCK_SIGNING_SERVICE = 'bedrock';

export function bedrockSettingsOf(upstream: ResolvedUpstream): BedrockSettings {
  const settings = upstream.provider;
  if (settings.kind !== 'AWSBedrock') {
    throw new GatewayError('TG_UPSTREAM_ERROR', { detail: '(not an AWS Bedrock upstream)' });
  }
  return settings;
}

export function bedrockOrigin(settings: BedrockSettings): string {
  if (settings.endpoint !== null && settings.endpoint !== '') {
    return new URL(settings.endpoint).origin;
  }
  return `https://bedrock-runtime.${settings.region}.amazonaws.com`;
}

function isCountTokens(call: ProviderCall): boolean {
  return (call.path.split('?')[0] ?? '').endsWith('/count_tokens');
}

export function createAwsBedrockProvider(options: AwsBedrockProviderOptions): UpstreamProvider {
  const cache = new AwsCredentialCache({
    clock: options.clock,
    stsEndpoint: options.endpoints.awsSts,
  });
  const signingKeys = new SigningKeyCache();
  return {
    async prepare(call: ProviderCall, upstream: ResolvedUpstream): Promise<PreparedCall> {
      const settings = bedrockSettingsOf(upstream);
      const mapped = mapBedrockRequest({
        path: call.path,
        body: call.body,
        stream: call.stream,
        model: call.model,
        betaHeader: call.headers['anthropic-beta'],
      });
      if (!mapped.ok) throw new GatewayError('TG_BAD_REQUEST', { detail: mapped.detail });
      const credentials = await cache.credentials(settings.credentials, settings.region);
      const origin = bedrockOrigin(settings);
      const method = 'POST';
      const headers = signAwsRequest({
        method,
        origin,
        path: mapped.request.path,
        headers: { 'content-type': 'application/json', accept: mapped.request.accept },
        body: mapped.request.body,
        region: settings.region,
        service: BEDROCK_SIGNING_SERVICE,
        credentials,
        now: new Date(options.clock()),
        signingKeys,
      });
      return { origin, path: mapped.request.path, method, headers, body: mapped.request.body };
    },

    decodeReply(call: ProviderCall): ReplyDecoder | null {
      if (isCountTokens(call)) return new CountTokensReplyDecoder();
      return call.stream ? new AnthropicStreamEmitter() : null;
    },

    mapError(call, reply) {
      const mapped = mapBedrockError(reply);
      return {
        status: mapped.status,
        bytes: mapped.bytes,
        ...(mapped.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: mapped.retryAfterSeconds }),
      };
    },

    answerInstead(call, reply) {
      if (!isCountTokens(call) || !countTokensUnavailable(reply)) return null;
      return localTokenEstimate(call.body);
    },

    invalidate(upstream: ResolvedUpstream): void {
      const settings = bedrockSettingsOf(upstream);
      cache.forget(settings.credentials, settings.region);
    },
  };
}
