/**
 * How an upstream provider (Direct, AWS Bedrock, Google Vertex AI, Azure OpenAI) turns the
 * first-party call a protocol adapter built into what is sent, and its replies back into
 * first-party bytes.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { ResolvedUpstream } from './resolved-upstream.js';

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
    }
  | {
      kind: 'GCPVertexAI';
      project: string;
      location: string;
      endpoint: string | null;
      credentials:
        { type: 'GCPServiceAccount'; serviceAccountJson: string } | { type: 'GCPWorkloadIdentity' };
    }
  | {
      kind: 'AzureOpenAI';
      endpoint: string;
      apiVersion: string | null;
      credentials:
        | { type: 'APIKey'; apiKey: string }
        | { type: 'AzureEntraID'; tenantID: string; clientID: string; clientSecret: string };
    };

export type ProviderUpstream = ResolvedUpstream & { provider: ProviderSettings };

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

export interface PreparedCall {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ReplyDecoder {
  contentType: string;
  push(chunk: Buffer): Buffer;
  end(): Buffer;
}

export interface UpstreamProvider {
  prepare(call: ProviderCall, upstream: ProviderUpstream): Promise<PreparedCall>;
  decodeReply(
    call: ProviderCall,
    reply: { status: number; contentType: string },
  ): ReplyDecoder | null;
  mapError?(
    call: ProviderCall,
    reply: { status: number; headers: Record<string, string>; bytes: Buffer },
  ): { status: number; bytes: Buffer; retryAfterSeconds?: number } | null;
  invalidate?(upstream: ProviderUpstream): void;
}
