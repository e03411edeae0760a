/**
 * The two ways a Vertex AI upstream gets its Google access token: the JWT bearer grant with a
 * service account's key (a form POST to the key's `token_uri`), and the GKE metadata server
 * (Workload Identity: `GET /computeMetadata/v1/instance/service-accounts/default/token` with
 * `Metadata-Flavor: Google`). Both answer `{access_token, expires_in, token_type}`. Any failure is
 * a 502 `TG_UPSTREAM_AUTH_FAILED`; token values are never logged.
 */
import { requestIssuedToken, type IssuedToken } from '../../upstreams/post-token-form.js';
import {
  jwtBearerGrantForm,
  signServiceAccountAssertion,
  type ServiceAccountKey,
} from './sign-service-account-assertion.js';

export type AccessToken = IssuedToken;

/** The metadata server's address when `GCE_METADATA_HOST` names none. */
export const DEFAULT_METADATA_HOST = 'metadata.google.internal';
const METADATA_TOKEN_PATH = '/computeMetadata/v1/instance/service-accounts/default/token';

/** The JWT bearer grant: an assertion signed now, exchanged at the key's `token_uri`. */
export function requestServiceAccountToken(
  key: ServiceAccountKey,
  options: { nowMs: number; timeoutMs: number },
): Promise<AccessToken> {
  const assertion = signServiceAccountAssertion(key, Math.floor(options.nowMs / 1000));
  return requestIssuedToken({
    url: key.tokenUri,
    what: 'token endpoint',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: jwtBearerGrantForm(assertion),
    timeoutMs: options.timeoutMs,
  });
}

/**
 * The metadata server's origin from `GCE_METADATA_HOST` (a host or host:port, as Google's client
 * libraries read it; a scheme is accepted for tests), or the GKE default.
 */
export function metadataOrigin(metadataHost: string | null): string {
  const host = metadataHost === null || metadataHost === '' ? DEFAULT_METADATA_HOST : metadataHost;
  return /^https?:\/\//.test(host) ? host.replace(/\/+$/, '') : `http://${host}`;
}

/** The Workload Identity token of the pod's Kubernetes service account. */
export function requestMetadataToken(options: {
  metadataHost: string | null;
  timeoutMs: number;
}): Promise<AccessToken> {
  return requestIssuedToken({
    url: `${metadataOrigin(options.metadataHost)}${METADATA_TOKEN_PATH}`,
    what: 'metadata server',
    method: 'GET',
    headers: { 'metadata-flavor': 'Google' },
    timeoutMs: options.timeoutMs,
  });
}
