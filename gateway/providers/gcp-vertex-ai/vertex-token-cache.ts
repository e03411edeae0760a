/**
 * Access tokens for Vertex AI upstreams, from a service account's key or from the GKE metadata
 * server, cached until shortly before they expire and refreshed once under concurrency: every call
 * that finds no valid token shares the one request in flight (as `upstreams/refresh-google-token.ts`
 * does for GoogleOAuth upstreams). One entry per credential: a rotated key gets a fresh entry; the
 * metadata server's token is one entry (the pod has one service account).
 */
import { createHash } from 'node:crypto';
import type { GCPCredentials } from '../../spec/resolved-upstream.js';
import {
  requestMetadataToken,
  requestServiceAccountToken,
  type AccessToken,
} from './request-access-token.js';
import {
  parseServiceAccountKey,
  type ServiceAccountKey,
} from './sign-service-account-assertion.js';

export type VertexCredentials = GCPCredentials;

export interface VertexTokenCacheOptions {
  clock: () => number;
  /** `GCE_METADATA_HOST`, read once from the gateway's config; null: the GKE default. */
  metadataHost: string | null;
  /** A token is refreshed this long before it expires. Default 60 s. */
  refreshMarginMs?: number;
  /** Bound on one token request (connect, headers and body). Default 10 s. */
  timeoutMs?: number;
}

interface CachedToken {
  accessToken: string;
  /** Epoch ms after which the token is not used any more (expiry minus the margin). */
  useUntil: number;
}

const WORKLOAD_IDENTITY_KEY = 'workload-identity';

function cacheKey(credentials: VertexCredentials): string {
  if (credentials.type === 'GCPWorkloadIdentity') return WORKLOAD_IDENTITY_KEY;
  return createHash('sha256').update(credentials.serviceAccountJson).digest('base64url');
}

export class VertexTokenCache {
  readonly #tokens = new Map<string, CachedToken>();
  readonly #keys = new Map<string, ServiceAccountKey>();
  readonly #inFlight = new Map<string, Promise<string>>();
  readonly #clock: () => number;
  readonly #metadataHost: string | null;
  readonly #marginMs: number;
  readonly #timeoutMs: number;

  constructor(options: VertexTokenCacheOptions) {
    this.#clock = options.clock;
    this.#metadataHost = options.metadataHost;
    this.#marginMs = options.refreshMarginMs ?? 60_000;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** A valid access token for the credentials: cached, or the (single) request in flight. */
  accessToken(credentials: VertexCredentials): Promise<string> {
    const key = cacheKey(credentials);
    const cached = this.#tokens.get(key);
    if (cached !== undefined && this.#clock() < cached.useUntil) {
      return Promise.resolve(cached.accessToken);
    }
    const running = this.#inFlight.get(key);
    if (running !== undefined) return running;
    const refresh = this.#refresh(key, credentials).finally(() => {
      this.#inFlight.delete(key);
    });
    this.#inFlight.set(key, refresh);
    return refresh;
  }

  /** Forgets the cached token of the credentials (the upstream refused it). */
  forget(credentials: VertexCredentials): void {
    this.#tokens.delete(cacheKey(credentials));
  }

  #serviceAccountKey(key: string, json: string): ServiceAccountKey {
    let parsed = this.#keys.get(key);
    if (parsed === undefined) {
      parsed = parseServiceAccountKey(json);
      this.#keys.set(key, parsed);
    }
    return parsed;
  }

  async #refresh(key: string, credentials: VertexCredentials): Promise<string> {
    const started = this.#clock();
    let token: AccessToken;
    if (credentials.type === 'GCPServiceAccount') {
      const serviceAccount = this.#serviceAccountKey(key, credentials.serviceAccountJson);
      token = await requestServiceAccountToken(serviceAccount, {
        nowMs: started,
        timeoutMs: this.#timeoutMs,
      });
    } else {
      token = await requestMetadataToken({
        metadataHost: this.#metadataHost,
        timeoutMs: this.#timeoutMs,
      });
    }
    const useUntil = started + token.expiresInSeconds * 1000 - this.#marginMs;
    this.#tokens.set(key, { accessToken: token.accessToken, useUntil });
    return token.accessToken;
  }
}
