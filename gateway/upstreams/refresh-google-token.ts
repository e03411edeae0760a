/**
 * Google OAuth access tokens for GoogleOAuth upstreams (Antigravity): exchanged from the Upstream's
 * refresh token with a `grant_type=refresh_token` form POST to its token URL (post-token-form.ts),
 * cached until shortly before `expires_in`, and refreshed once under concurrency (callers share the
 * one exchange in flight, cache-access-tokens.ts). Any failure is a 502 `TG_UPSTREAM_AUTH_FAILED`;
 * token values are never logged.
 */
import type { GoogleOAuthCredential } from '../spec/resolved-upstream.js';
import { AccessTokenCache, credentialKey } from './cache-access-tokens.js';
import { postTokenForm } from './post-token-form.js';

export interface GoogleTokenCacheOptions {
  clock: () => number;
  /** A token is refreshed this long before it expires. Default 60 s. */
  refreshMarginMs?: number;
  /** Bound on one token exchange (connect, headers and body). Default 10 s. */
  timeoutMs?: number;
}

/** One cache entry per credential: a rotated refresh token or secret gets a fresh entry. */
function cacheKey(credential: GoogleOAuthCredential): string {
  return credentialKey([
    credential.tokenURL,
    credential.clientID,
    credential.clientSecret,
    credential.refreshToken,
  ]);
}

export class GoogleTokenCache {
  readonly #tokens: AccessTokenCache;
  readonly #timeoutMs: number;

  constructor(options: GoogleTokenCacheOptions) {
    this.#tokens = new AccessTokenCache(options);
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** A valid access token for the credential: cached, or the (single) exchange in flight. */
  accessToken(credential: GoogleOAuthCredential): Promise<string> {
    return this.#tokens.token(cacheKey(credential), () =>
      postTokenForm(credential.tokenURL, {
        fields: {
          grant_type: 'refresh_token',
          refresh_token: credential.refreshToken,
          client_id: credential.clientID,
          client_secret: credential.clientSecret,
        },
        timeoutMs: this.#timeoutMs,
      }),
    );
  }

  /** Forgets the cached token of a credential (for example after the upstream refused it). */
  forget(credential: GoogleOAuthCredential): void {
    this.#tokens.forget(cacheKey(credential));
  }
}
