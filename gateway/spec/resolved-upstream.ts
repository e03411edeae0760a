/**
 * An upstream as the gateway holds it after reading its policy and opening its credential: what an
 * adapter may bind itself to (`RequestAdapter.forUpstream`) and what the forward stage sends to.
 * `upstreams/resolve-upstreams.ts` builds it.
 */
import type { Platform } from '../../crds/schema/resources.js';
import type { ModelPrice } from '../../store/policy-documents.js';

export interface ResolvedUpstream {
  name: string;
  platform: Platform;
  /** Direct upstreams: the baseURL's origin; '' for cloud providers (they pick the address). */
  origin: string;
  /** The baseURL path without a trailing slash ('' for none). */
  basePath: string;
  /** Direct APIKey upstreams: the key ('' for cloud providers: see `provider.credentials`). GoogleOAuth upstreams: the refresh token (see `oauth`). */
  credential: string;
  /** GoogleOAuth upstreams: what the token exchange needs; null for APIKey upstreams. */
  oauth: GoogleOAuthCredential | null;
  maxConcurrent: number;
  /** Requests started per minute across replicas; 0 = unlimited. */
  requestsPerMinute: number;
  modelOverrides: Record<string, string>;
  /** OpenAI upstreams: Chat Completions translated to Responses, or passed through natively. */
  chatCompletions: 'Translate' | 'Native';
  /** OpenAI Direct upstreams serving Responses over WebSocket (`spec.responsesWebSocket`). */
  responsesWebSocket: boolean;
  weight: number;
  priority: number;
  /** Who serves the platform: the first-party API (`Direct`) or a cloud provider. */
  provider: ProviderSettings;
  /** The Upstream's price override (nano-USD per token, by billed model); null for none. */
  priceOverrides: Readonly<Record<string, ModelPrice>> | null;
}

/** An Upstream's `spec.provider` with its settings block and its opened credential. */
export type ProviderSettings =
  | { kind: 'Direct' }
  | {
      kind: 'AWSBedrock';
      region: string;
      endpoint: string | null;
      credentials: AWSCredentials;
    }
  | {
      kind: 'GCPVertexAI';
      project: string;
      location: string;
      endpoint: string | null;
      credentials: GCPCredentials;
    }
  | {
      kind: 'AzureOpenAI';
      endpoint: string;
      apiVersion: string | null;
      credentials: AzureCredentials;
    };

export type ProviderKind = ProviderSettings['kind'];

export type AWSCredentials =
  | {
      type: 'AWSAccessKey';
      accessKeyId: string;
      secretAccessKey: string;
      sessionToken: string | null;
    }
  | { type: 'AWSWebIdentity'; roleARN: string; tokenFile: string };

export type GCPCredentials =
  { type: 'GCPServiceAccount'; serviceAccountJson: string } | { type: 'GCPWorkloadIdentity' };

export type AzureCredentials =
  | { type: 'APIKey'; apiKey: string }
  | { type: 'AzureEntraID'; tenantID: string; clientID: string; clientSecret: string };

export interface GoogleOAuthCredential {
  clientID: string;
  tokenURL: string;
  projectID: string;
  refreshToken: string;
  clientSecret: string;
}
