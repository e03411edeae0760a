/**
 * How an upstream's provider turns the first-party call a protocol adapter built into what is sent
 * (address, body shape, authentication), and the provider's reply back into first-party bytes.
 * `Direct` (the first-party API) changes nothing; cloud providers (AWS Bedrock, Google Vertex AI,
 * Azure OpenAI) live in `providers/<name>/`, one per `ProviderSettings['kind']`, and are picked by
 * `providers/registry.ts`. The forward stage (`stages/forward/attempt-upstream.ts`) calls
 * `prepare`, sends the `PreparedCall` on the origin's pool, decodes a success with `decodeReply`
 * and maps an error status with `mapError`.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { RequestAdapter } from './protocol-adapter.js';
import type { ResolvedUpstream } from './resolved-upstream.js';

/** The first-party call the protocol adapter built, before any provider touches it. */
export interface ProviderCall {
  /** The Upstream's platform. */
  platform: Platform;
  method: string;
  /** First-party path with query, e.g. /v1/messages, /v1beta/models/m:streamGenerateContent?alt=sse */
  path: string;
  /** Client headers filtered for the upstream (no client credential). */
  headers: Record<string, string>;
  /** First-party JSON body (already model-overridden). */
  body: Buffer;
  /** adapter.isStream(context). */
  stream: boolean;
  /** The model as it goes upstream (after modelOverrides). */
  model: string | null;
  /**
   * The protocol's credential header (x-api-key, Authorization, x-goog-api-key), for providers
   * that authenticate as the first-party API does (Direct); set by the forward stage.
   */
  adapter?: Pick<RequestAdapter, 'applyCredential'>;
}

/** What is sent: origin (scheme://host[:port]) and everything else, credential applied. */
export interface PreparedCall {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** Turns a provider's success body into the first-party wire bytes the meters and clients read. */
export interface ReplyDecoder {
  /** The content type the decoded bytes have (e.g. text/event-stream for Bedrock streams). */
  contentType: string;
  /** May return an empty buffer. */
  push(chunk: Buffer): Buffer;
  /** Throws on a truncated / invalid stream. */
  end(): Buffer;
}

/** An error reply as the provider sent it (bounded read). */
export interface ProviderErrorReply {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/** An error reply mapped to the platform's first-party error shape. */
export interface MappedError {
  status: number;
  bytes: Buffer;
  /** The provider's throttling hint, fed to the pool's cool-down like a `retry-after` header. */
  retryAfterSeconds?: number;
}

export interface UpstreamProvider {
  /** Address, body shape and authentication for this provider; may await a token (cached). */
  prepare(call: ProviderCall, upstream: ResolvedUpstream): Promise<PreparedCall>;
  /** null when the success body is already first-party bytes. */
  decodeReply(
    call: ProviderCall,
    reply: { status: number; contentType: string },
  ): ReplyDecoder | null;
  /**
   * An error reply in the first-party error shape of the platform, and what the pool makes of it:
   * e.g. Bedrock ThrottlingException -> 429 Anthropic rate_limit_error, outcome 'rate_limited'.
   * Absent (or null): the reply passes on as sent and is classified by its status as today.
   */
  mapError?(call: ProviderCall, reply: ProviderErrorReply): MappedError | null;
  /**
   * A first-party JSON success body to answer an error reply with, when the provider can answer
   * the call itself (Bedrock's count_tokens where CountTokens is not available: the local
   * estimate). Absent (or null): the error stands.
   */
  answerInstead?(call: ProviderCall, reply: ProviderErrorReply): Buffer | null;
  /** Forget a cached token the provider refused (401/403). */
  invalidate?(upstream: ResolvedUpstream): void;
}

/**
 * Endpoints the providers' token sources use, read once from the gateway's config (the standard
 * variable names the providers' own SDKs read); null = the public default.
 */
export interface ProviderEndpoints {
  /** AWS_ENDPOINT_URL_STS: STS for web identity (default https://sts.<region>.amazonaws.com). */
  awsSts: string | null;
  /** GCE_METADATA_HOST: the GKE metadata server host[:port] (default metadata.google.internal). */
  gceMetadata: string | null;
  /** AZURE_AUTHORITY_HOST: Entra ID (default https://login.microsoftonline.com). */
  azureAuthority: string | null;
}

/** What every provider factory receives (`create<Name>Provider(options)`). */
export interface ProviderFactoryOptions {
  endpoints: ProviderEndpoints;
  /** Milliseconds since the epoch; tests move it. */
  clock: () => number;
}
