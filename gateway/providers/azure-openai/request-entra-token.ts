/**
 * Microsoft Entra ID access tokens for Azure OpenAI, by the client credentials grant:
 * `POST <authority>/<tenant>/oauth2/v2.0/token` with the app registration's client id and secret
 * and the scope `https://cognitiveservices.azure.com/.default`. The authority is
 * `https://login.microsoftonline.com` unless `AZURE_AUTHORITY_HOST` names another (sovereign
 * clouds, tests).
 */
import type { AzureCredentials } from '../../spec/resolved-upstream.js';
import { postTokenForm, type IssuedToken } from '../../upstreams/post-token-form.js';

export const PUBLIC_AZURE_AUTHORITY = 'https://login.microsoftonline.com';
export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

export type EntraCredential = Extract<AzureCredentials, { type: 'AzureEntraID' }>;

export function entraTokenURL(authority: string | null, tenantID: string): string {
  const base = (authority ?? PUBLIC_AZURE_AUTHORITY).replace(/\/+$/, '');
  return `${base}/${encodeURIComponent(tenantID)}/oauth2/v2.0/token`;
}

export function requestEntraToken(
  credential: EntraCredential,
  options: { authority: string | null; timeoutMs: number },
): Promise<IssuedToken> {
  return postTokenForm(entraTokenURL(options.authority, credential.tenantID), {
    fields: {
      grant_type: 'client_credentials',
      client_id: credential.clientID,
      client_secret: credential.clientSecret,
      scope: COGNITIVE_SERVICES_SCOPE,
    },
    timeoutMs: options.timeoutMs,
  });
}
