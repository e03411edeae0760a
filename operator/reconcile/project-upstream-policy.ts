/**
 * Upstream -> the plaintext credential read from its Secret (or why it cannot be read), and the
 * UpstreamPolicy around the sealed credential. Sealing is randomised, so the digest covers a hash of
 * the plaintext instead of the sealed text: an unchanged credential keeps its digest. Cloud
 * providers' credentials are sealed whole, as the JSON of `ProviderSettings['credentials']` (the
 * Secret's values and the spec's public fields), and their settings block is projected into
 * `provider`; Direct upstreams keep today's document (no `provider`), so their digest is unchanged.
 */
import { createHash } from 'node:crypto';
import type { Upstream } from '../../crds/schema/resources.js';
import type { ProviderPolicy, UpstreamPolicy } from '../../store/policy-documents.js';
import type { DesiredCondition } from './manage-conditions.js';
import { computeDigest } from './compute-digest.js';
import { projectModelPrice } from './project-group-pricing.js';

/** Secret data, already base64-decoded. */
export type SecretData = Readonly<Record<string, string>>;

export type CredentialResult =
  { ok: true; plaintext: string } | { ok: false; condition: DesiredCondition };

type Credentials = Upstream['spec']['credentials'];

function refused(reason: string, message: string): CredentialResult {
  return { ok: false, condition: { type: 'ResolvedRefs', status: 'False', reason, message } };
}

/** The Secret the credential reads; '' for credential types that read none. */
export function upstreamSecretName(upstream: Upstream): string {
  const credentials = upstream.spec.credentials;
  switch (credentials.type) {
    case 'APIKey':
      return credentials.apiKey?.secretRef.name ?? '';
    case 'GoogleOAuth':
      return credentials.googleOAuth?.secretRef.name ?? '';
    case 'AWSAccessKey':
      return credentials.awsAccessKey?.secretRef.name ?? '';
    case 'GCPServiceAccount':
      return credentials.gcpServiceAccount?.secretRef.name ?? '';
    case 'AzureEntraID':
      return credentials.azureEntraID?.secretRef.name ?? '';
    case 'AWSWebIdentity':
    case 'GCPWorkloadIdentity':
      return '';
  }
}

/** The Secret keys the credential needs (all non-empty), then the optional ones. */
function secretKeys(credentials: Credentials): { required: string[]; optional: string[] } {
  switch (credentials.type) {
    case 'APIKey':
      return { required: [credentials.apiKey?.secretRef.key ?? 'apiKey'], optional: [] };
    case 'GoogleOAuth':
      return { required: ['refreshToken', 'clientSecret'], optional: [] };
    case 'AWSAccessKey':
      return { required: ['accessKeyId', 'secretAccessKey'], optional: ['sessionToken'] };
    case 'GCPServiceAccount':
      return { required: [credentials.gcpServiceAccount?.secretRef.key ?? 'key'], optional: [] };
    case 'AzureEntraID':
      return { required: ['clientSecret'], optional: [] };
    case 'AWSWebIdentity':
    case 'GCPWorkloadIdentity':
      return { required: [], optional: [] };
  }
}

/** The sealed plaintext: today's JSON for Direct upstreams, the credentials union for the rest. */
function credentialPlaintext(upstream: Upstream, values: SecretData): string {
  const credentials = upstream.spec.credentials;
  const [first = ''] = secretKeys(credentials).required;
  switch (credentials.type) {
    case 'APIKey':
      return (upstream.spec.provider ?? 'Direct') === 'Direct'
        ? JSON.stringify({ apiKey: values[first] })
        : JSON.stringify({ type: 'APIKey', apiKey: values[first] });
    case 'GoogleOAuth':
      return JSON.stringify({
        refreshToken: values.refreshToken,
        clientSecret: values.clientSecret,
      });
    case 'AWSAccessKey':
      return JSON.stringify({
        type: 'AWSAccessKey',
        accessKeyId: values.accessKeyId,
        secretAccessKey: values.secretAccessKey,
        sessionToken: (values.sessionToken ?? '') === '' ? null : values.sessionToken,
      });
    case 'AWSWebIdentity':
      return JSON.stringify({
        type: 'AWSWebIdentity',
        roleARN: credentials.awsWebIdentity?.roleARN ?? '',
        tokenFile: credentials.awsWebIdentity?.tokenFile ?? '',
      });
    case 'GCPServiceAccount':
      return JSON.stringify({ type: 'GCPServiceAccount', serviceAccountJson: values[first] });
    case 'GCPWorkloadIdentity':
      return JSON.stringify({ type: 'GCPWorkloadIdentity' });
    case 'AzureEntraID':
      return JSON.stringify({
        type: 'AzureEntraID',
        tenantID: credentials.azureEntraID?.tenantID ?? '',
        clientID: credentials.azureEntraID?.clientID ?? '',
        clientSecret: values.clientSecret,
      });
  }
}

export function resolveUpstreamCredential(
  upstream: Upstream,
  secret: { namespace: string; data: SecretData } | undefined,
): CredentialResult {
  const secretName = upstreamSecretName(upstream);
  if (secretName === '') return { ok: true, plaintext: credentialPlaintext(upstream, {}) };
  if (secret === undefined) {
    return refused('SecretNotFound', `Secret ${secretName} not found in the operator namespace`);
  }
  const { required } = secretKeys(upstream.spec.credentials);
  const missing = required.filter((key) => (secret.data[key] ?? '') === '');
  if (missing.length > 0) {
    return refused('SecretKeyMissing', `Secret ${secretName} has no ${missing.join(', ')}`);
  }
  return { ok: true, plaintext: credentialPlaintext(upstream, secret.data) };
}

/** The settings block of a cloud provider; null for Direct. */
export function projectProvider(spec: Upstream['spec']): ProviderPolicy | null {
  switch (spec.provider) {
    case 'AWSBedrock':
      return {
        kind: 'AWSBedrock',
        region: spec.awsBedrock?.region ?? '',
        endpoint: spec.awsBedrock?.endpoint ?? null,
      };
    case 'GCPVertexAI':
      return {
        kind: 'GCPVertexAI',
        project: spec.gcpVertexAI?.project ?? '',
        location: spec.gcpVertexAI?.location ?? '',
        endpoint: spec.gcpVertexAI?.endpoint ?? null,
      };
    case 'AzureOpenAI':
      return {
        kind: 'AzureOpenAI',
        endpoint: spec.azureOpenAI?.endpoint ?? '',
        apiVersion: spec.azureOpenAI?.apiVersion ?? null,
      };
    case 'Direct':
    case undefined:
      return null;
  }
}

export function projectUpstreamPolicy(
  upstream: Upstream,
  credential: { plaintext: string; sealed: string },
): UpstreamPolicy {
  const spec = upstream.spec;
  const oauth = spec.credentials.googleOAuth;
  const provider = projectProvider(spec);
  const overrides = spec.pricing?.overrides ?? [];
  const content = {
    name: upstream.metadata.name,
    platform: spec.platform,
    baseURL: spec.baseURL ?? '',
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
    ...(provider === null ? {} : { provider }),
    ...(spec.responsesWebSocket === 'Enabled' ? { responsesWebSocket: true as const } : {}),
    ...(overrides.length === 0
      ? {}
      : {
          priceOverrides: Object.fromEntries(
            overrides.map((item) => [item.model, projectModelPrice(item)]),
          ),
        }),
  };
  const credentialHash = createHash('sha256').update(credential.plaintext).digest('hex');
  const digest = computeDigest({ ...content, credentialHash });
  return { ...content, sealedCredential: credential.sealed, digest };
}
