/**
 * Upstream providers: how a first-party call reaches a provider (address, body shape,
 * authentication) and how the provider's reply becomes first-party bytes again.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { ResolvedUpstream } from './resolved-upstream.js';

/** The first-party call the protocol adapter built, before any provider touches it. */
export interface ProviderCall {
  platform: Platform;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  stream: boolean;
  model: string | null;
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
  contentType: string;
  push(chunk: Buffer): Buffer;
  end(): Buffer;
}

export interface UpstreamProvider {
  prepare(call: ProviderCall, upstream: ResolvedUpstream): Promise<PreparedCall>;
  decodeReply(
    call: ProviderCall,
    reply: { status: number; contentType: string },
  ): ReplyDecoder | null;
  mapError?(
    call: ProviderCall,
    reply: { status: number; headers: Record<string, string>; bytes: Buffer },
  ): { status: number; bytes: Buffer; retryAfterSeconds?: number } | null;
  invalidate?(upstream: ResolvedUpstream): void;
}

export type ProviderSettings =
  | { kind: 'Direct' }
  | {
      kind: 'AWSBedrock';
      region: string;
      endpoint: string | null;
      credentials:
        | {
            type: 'AWSAccessKey';
            accessKeyId: string;
            secretAccessKey: string;
            sessionToken: string | null;
          }
        | { type: 'AWSWebIdentity'; roleARN: string; tokenFile: string };
    };
