/**
 * `provider: AzureOpenAI`: OpenAI models on an Azure OpenAI resource. The first-party call goes to
 * the resource's endpoint on the v1 API or on deployment paths with `api-version`
 * (`map-azure-path.ts`), its body unchanged (the model, after modelOverrides, names the
 * deployment), authenticated by the `api-key` header or by an Entra ID bearer token (client
 * credentials, cached and refreshed once for all waiting calls). Azure answers in OpenAI's wire
 * format, errors included (`{"error": {...}}`, 429 with `retry-after`), so replies pass on as sent.
 */
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type {
  PreparedCall,
  ProviderCall,
  ProviderFactoryOptions,
  UpstreamProvider,
} from '../../spec/upstream-provider.js';
import { AccessTokenCache, credentialKey } from '../../upstreams/cache-access-tokens.js';
import { azureOrigin, mapAzurePath } from './map-azure-path.js';
import { requestEntraToken, type EntraCredential } from './request-entra-token.js';

export interface AzureOpenAIProviderOptions extends ProviderFactoryOptions {
  /** Bound on one token request. Default 10 s. */
  tokenTimeoutMs?: number;
}

export function createAzureOpenAIProvider(options: AzureOpenAIProviderOptions): UpstreamProvider {
  const tokens = new AccessTokenCache({ clock: options.clock });
  const authority = options.endpoints.azureAuthority;
  const timeoutMs = options.tokenTimeoutMs ?? 10_000;
  const keyOf = (credential: EntraCredential) =>
    credentialKey([
      authority ?? '',
      credential.tenantID,
      credential.clientID,
      credential.clientSecret,
    ]);

  return {
    async prepare(call: ProviderCall, upstream: ResolvedUpstream): Promise<PreparedCall> {
      const settings = upstream.provider;
      if (settings.kind !== 'AzureOpenAI') {
        throw new Error(`upstream ${upstream.name} is not an AzureOpenAI upstream`);
      }
      const { headers } = call;
      const credentials = settings.credentials;
      if (credentials.type === 'APIKey') {
        headers['api-key'] = credentials.apiKey;
      } else {
        const token = await tokens.token(keyOf(credentials), () =>
          requestEntraToken(credentials, { authority, timeoutMs }),
        );
        headers.authorization = `Bearer ${token}`;
      }
      return {
        origin: azureOrigin(settings.endpoint),
        path: mapAzurePath({ path: call.path, model: call.model, apiVersion: settings.apiVersion }),
        method: call.method,
        headers,
        body: call.body,
      };
    },
    decodeReply: () => null,
    invalidate(upstream: ResolvedUpstream): void {
      const settings = upstream.provider;
      if (settings.kind === 'AzureOpenAI' && settings.credentials.type === 'AzureEntraID') {
        tokens.forget(keyOf(settings.credentials));
      }
    },
  };
}
