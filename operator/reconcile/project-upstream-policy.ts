/**
 * Upstream -> the plaintext credential read from its Secret (or why it cannot be read), and the
 * UpstreamPolicy around the sealed credential. Sealing is randomised, so the digest covers a hash of
 * the plaintext instead of the sealed text: an unchanged credential keeps its digest.
 */
import { createHash } from 'node:crypto';
import type { Upstream } from '../../crds/schema/resources.js';
import type { UpstreamPolicy } from '../../store/policy-documents.js';
import type { DesiredCondition } from './manage-conditions.js';
import { computeDigest } from './compute-digest.js';

/** Secret data, already base64-decoded. */
export type SecretData = Readonly<Record<string, string>>;

export type CredentialResult =
  { ok: true; plaintext: string } | { ok: false; condition: DesiredCondition };

function refused(reason: string, message: string): CredentialResult {
  return { ok: false, condition: { type: 'ResolvedRefs', status: 'False', reason, message } };
}

export function upstreamSecretName(upstream: Upstream): string {
  const credentials = upstream.spec.credentials;
  return credentials.type === 'APIKey'
    ? (credentials.apiKey?.secretRef.name ?? '')
    : (credentials.googleOAuth?.secretRef.name ?? '');
}

export function resolveUpstreamCredential(
  upstream: Upstream,
  secret: { namespace: string; data: SecretData } | undefined,
): CredentialResult {
  const credentials = upstream.spec.credentials;
  const secretName = upstreamSecretName(upstream);
  if (secret === undefined) {
    return refused('SecretNotFound', `Secret ${secretName} not found in the operator namespace`);
  }
  const wanted =
    credentials.type === 'APIKey'
      ? [credentials.apiKey?.secretRef.key ?? 'apiKey']
      : ['refreshToken', 'clientSecret'];
  const missing = wanted.filter((key) => (secret.data[key] ?? '') === '');
  if (missing.length > 0) {
    return refused('SecretKeyMissing', `Secret ${secretName} has no ${missing.join(', ')}`);
  }
  const plaintext =
    credentials.type === 'APIKey'
      ? JSON.stringify({ apiKey: secret.data[wanted[0] ?? ''] })
      : JSON.stringify({
          refreshToken: secret.data.refreshToken,
          clientSecret: secret.data.clientSecret,
        });
  return { ok: true, plaintext };
}

export function projectUpstreamPolicy(
  upstream: Upstream,
  credential: { plaintext: string; sealed: string },
): UpstreamPolicy {
  const spec = upstream.spec;
  const oauth = spec.credentials.googleOAuth;
  const content = {
    name: upstream.metadata.name,
    platform: spec.platform,
    baseURL: spec.baseURL,
    credentialType: spec.credentials.type,
    oauth:
      spec.credentials.type === 'GoogleOAuth' && oauth !== undefined
        ? { clientID: oauth.clientID, tokenURL: oauth.tokenURL, projectID: oauth.projectID }
        : null,
    maxConcurrent: spec.maxConcurrentRequests ?? 0,
    modelOverrides: Object.fromEntries(
      (spec.modelOverrides ?? []).map((item) => [item.name, item.upstreamModel]),
    ),
    chatCompletions: spec.chatCompletions ?? 'Translate',
    // Only when set, so the digest of every other upstream document is unchanged.
    ...(spec.requestsPerMinute === undefined || spec.requestsPerMinute === 0
      ? {}
      : { requestsPerMinute: spec.requestsPerMinute }),
  };
  const credentialHash = createHash('sha256').update(credential.plaintext).digest('hex');
  const digest = computeDigest({ ...content, credentialHash });
  return { ...content, sealedCredential: credential.sealed, digest };
}
