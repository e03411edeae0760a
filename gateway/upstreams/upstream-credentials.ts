/**
 * The credential the forward stage puts on an upstream request. API-key upstreams carry it as is;
 * GoogleOAuth upstreams get an access token exchanged from their refresh token and cached
 * (`refresh-google-token.ts`).
 */
import { GoogleTokenCache } from './refresh-google-token.js';
import type { ResolvedUpstream } from '../spec/resolved-upstream.js';

export interface UpstreamCredentials {
  credentialFor(upstream: ResolvedUpstream): Promise<string>;
  /** Optional: forget a cached credential the upstream refused (401/403), so the next is fresh. */
  invalidate?(upstream: ResolvedUpstream): void;
}

/** API keys only: GoogleOAuth upstreams are refused until a token source is configured. */
export const apiKeyCredentials: UpstreamCredentials = {
  credentialFor: (upstream) =>
    upstream.oauth === null
      ? Promise.resolve(upstream.credential)
      : Promise.reject(new Error(`upstream ${upstream.name} needs an OAuth token source`)),
};

/** The default source: API keys as is, Google OAuth access tokens through one shared cache. */
export function createUpstreamCredentials(options: {
  clock: () => number;
  tokens?: GoogleTokenCache;
}): UpstreamCredentials {
  const tokens = options.tokens ?? new GoogleTokenCache({ clock: options.clock });
  return {
    credentialFor: (upstream) =>
      upstream.oauth === null
        ? Promise.resolve(upstream.credential)
        : tokens.accessToken(upstream.oauth),
    invalidate: (upstream) => {
      if (upstream.oauth !== null) tokens.forget(upstream.oauth);
    },
  };
}
