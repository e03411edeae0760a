/**
 * The credential the forward stage puts on an upstream request. API-key upstreams carry it as is;
 * GoogleOAuth upstreams need an access token exchanged from their refresh token, which an
 * implementation of this interface caches (see the antigravity platform).
 */
import type { ResolvedUpstream } from './resolve-upstreams.js';

export interface UpstreamCredentials {
  credentialFor(upstream: ResolvedUpstream): Promise<string>;
}

/** API keys only: GoogleOAuth upstreams are refused until a token source is configured. */
export const apiKeyCredentials: UpstreamCredentials = {
  credentialFor: (upstream) =>
    upstream.oauth === null
      ? Promise.resolve(upstream.credential)
      : Promise.reject(new Error(`upstream ${upstream.name} needs an OAuth token source`)),
};
