/**
 * The policy documents: the contract between operator (writer) and gateway (reader). Each document is
 * a pure projection of the resources; `digest` identifies its content so writers apply only changes.
 * A key document carries everything admission needs about its group and account placement, so the
 * gateway reads one document per request.
 */
import type { Platform } from '../crds/schema/resources.js';
import type { CredentialType } from '../crds/schema/upstream-credentials.js';
import type { MemberLimitsPolicy, PlanPolicy } from './budget-windows.js';
import type { CaptureSettings } from './captured-call.js';

/** Prices in integer nano-USD per token. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

/** Why a key cannot be used, in the admission order; `Active` keys go on to the counters. */
export type KeyState =
  | 'Active'
  | 'NoGroup'
  | 'GroupNotFound'
  | 'GroupNotPermitted'
  | 'InvalidKey'
  | 'SecretConflict'
  | 'DuplicateKey';

export interface UpstreamRef {
  name: string;
  weight: number;
  priority: number;
}

export interface KeyPolicy {
  digest: string;
  keyUid: string;
  namespace: string;
  name: string;
  state: KeyState;
  suspended: boolean;
  /** Epoch ms; null = never expires. */
  expiresAt: number | null;
  limits: { quotaNano: number; fiveHourNano: number; dailyNano: number; sevenDayNano: number };
  sourceRanges: { allow: string[]; deny: string[] };
  maxConcurrent: number;
  /** Key-level model globs; null = all the group allows. */
  modelsAllow: string[] | null;
  /** The user the key belongs to (member budgets); absent = counted toward no member. */
  owner?: string;
  /**
   * Present when the key's account has a plan or member limits: the gateway then computes the
   * calendar window ends in `timeZone` (null = the gateway's --time-zone) for the admission, and
   * applies the plan's model globs (null = all).
   */
  budget?: {
    plan: boolean;
    memberLimits: boolean;
    timeZone: string | null;
    planModelsAllow: string[] | null;
  };
  /**
   * The effective capture settings (the key's `spec.capture` over its group's, docs/captures.md);
   * present only when requests or responses are captured.
   */
  capture?: CaptureSettings;
  /** Present when the key has a usable group (state Active). */
  group: {
    name: string;
    platform: Platform;
    /** Multiplier as an exact fraction: cost x numerator / denominator. */
    multiplier: { numerator: number; denominator: number };
    multiplierText: string;
    upstreams: UpstreamRef[];
    modelsAllow: string[] | null;
    priceOverrides: Record<string, ModelPrice>;
    priceFallback: ModelPrice | null;
    /**
     * Sticky sessions: how long a session stays bound to its upstream, 0 = off. Absent (documents
     * of Groups without `sessionAffinity`) = on, for the gateway's default TTL.
     */
    sessionTtlMs?: number;
    /**
     * Wait for a streamed reply's first event after the 2xx headers (then fail over); 0 = off.
     * Absent (Groups without `firstOutputTimeoutSeconds`) = the gateway's default.
     */
    firstOutputTimeoutMs?: number;
    /** Longest silence between two reply chunks; absent = the gateway's `--body-timeout-ms`. */
    streamIdleTimeoutMs?: number;
  } | null;
}

export interface GroupPolicy {
  digest: string;
  name: string;
  platform: Platform;
  multiplierText: string;
  upstreams: UpstreamRef[];
}

export interface UpstreamPolicy {
  digest: string;
  name: string;
  platform: Platform;
  baseURL: string;
  /** AES-256-GCM sealed JSON of the credential; opened only in gateway memory. */
  sealedCredential: string;
  credentialType: CredentialType;
  /** For GoogleOAuth: the non-secret half of the credential. */
  oauth: { clientID: string; tokenURL: string; projectID: string } | null;
  maxConcurrent: number;
  /** Requests started per minute across replicas; absent or 0 = unlimited. */
  requestsPerMinute?: number;
  modelOverrides: Record<string, string>;
  chatCompletions: 'Translate' | 'Native';
  /** OpenAI Direct: the upstream serves Responses over WebSocket; absent = it does not. */
  responsesWebSocket?: true;
  /** Cloud providers: the settings block (absent = Direct, the first-party API at `baseURL`). */
  provider?: ProviderPolicy;
  /** Prices (nano-USD per token) for calls this upstream serves, by billed model; absent = none. */
  priceOverrides?: Record<string, ModelPrice>;
}

/** An Upstream's cloud provider settings; the credentials are in `sealedCredential`. */
export type ProviderPolicy =
  | { kind: 'AWSBedrock'; region: string; endpoint: string | null }
  | { kind: 'GCPVertexAI'; project: string; location: string; endpoint: string | null }
  | { kind: 'AzureOpenAI'; endpoint: string; apiVersion: string | null };

export interface AccountPolicy {
  digest: string;
  uid: string;
  namespace: string;
  /** Null = no balance limit. */
  creditNano: number | null;
  /** The lower of the Account's and its plan's limit (0 = unlimited). */
  maxConcurrent: number;
  /** The subscription (budget-windows.ts); absent without one or while its Plan is missing. */
  plan?: PlanPolicy;
  /** Absent = no member limits. */
  memberLimits?: MemberLimitsPolicy;
  /** The calendar windows' time zone (`spec.timeZone`), with a plan or member limits only. */
  timeZone?: string;
}
