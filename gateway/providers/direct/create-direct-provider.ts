/**
 * `provider: Direct`: the first-party API at the Upstream's baseURL, as before providers existed.
 * The path goes under the baseURL's path, the credential (the API key, or the Google OAuth access
 * token from `upstreams/upstream-credentials.ts`) is set by the protocol adapter's
 * `applyCredential` on the headers the forward stage filtered, and the reply is first-party bytes
 * already. The call's headers and body are passed on as they are: no copy, no re-serialising.
 */
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { PreparedCall, ProviderCall, UpstreamProvider } from '../../spec/upstream-provider.js';
import type { UpstreamCredentials } from '../../upstreams/upstream-credentials.js';

export interface DirectProviderOptions {
  credentials: UpstreamCredentials;
}

export function createDirectProvider(options: DirectProviderOptions): UpstreamProvider {
  const { credentials } = options;
  return {
    async prepare(call: ProviderCall, upstream: ResolvedUpstream): Promise<PreparedCall> {
      const credential = await credentials.credentialFor(upstream);
      call.adapter?.applyCredential(call.headers, credential);
      return {
        origin: upstream.origin,
        path: upstream.basePath === '' ? call.path : `${upstream.basePath}${call.path}`,
        method: call.method,
        headers: call.headers,
        body: call.body,
      };
    },
    decodeReply: () => null,
    invalidate: (upstream) => {
      credentials.invalidate?.(upstream);
    },
  };
}
