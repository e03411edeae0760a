/**
 * The two ways a Vertex AI upstream gets its Google access token: the JWT bearer grant with a
 * service account's key (a form POST to the key's `token_uri`), and the GKE metadata server
 * (Workload Identity: `GET /computeMetadata/v1/instance/service-accounts/default/token` with
 * `Metadata-Flavor: Google`). Both answer `{access_token, expires_in, token_type}`. Any failure is
 * a 502 `TG_UPSTREAM_AUTH_FAILED`; token values are never logged.
 */
import { request } from 'undici';
import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import {
  jwtBearerGrantForm,
  signServiceAccountAssertion,
  type ServiceAccountKey,
} from './sign-service-account-assertion.js';

export interface AccessToken {
  accessToken: string;
  expiresInSeconds: number;
}

/** The metadata server's address when `GCE_METADATA_HOST` names none. */
export const DEFAULT_METADATA_HOST = 'metadata.google.internal';
const METADATA_TOKEN_PATH = '/computeMetadata/v1/instance/service-accounts/default/token';

const tokenReplySchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().nonnegative().optional(),
});

/** Largest token reply read. */
const maxReplyBytes = 64 * 1024;

function authFailed(detail: string, cause?: unknown): GatewayError {
  return new GatewayError('TG_UPSTREAM_AUTH_FAILED', { detail, cause });
}

async function readLimited(body: AsyncIterable<unknown> & { destroy(): unknown }, what: string) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxReplyBytes) {
      body.destroy();
      throw authFailed(`(the ${what} reply is too large)`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface TokenRequest {
  url: string;
  /** Named in errors: "token endpoint" or "metadata server". */
  what: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

async function requestToken(options: TokenRequest): Promise<AccessToken> {
  const { what, timeoutMs } = options;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(options.url, {
      method: options.method,
      headers: { accept: 'application/json', ...options.headers },
      body: options.body ?? null,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      // Token requests are rare: do not keep a pooled connection open for them.
      reset: true,
    });
  } catch (error) {
    throw authFailed(`(the ${what} could not be reached)`, error);
  }
  const text = await readLimited(response.body, what);
  if (response.statusCode !== 200) {
    throw authFailed(`(the ${what} answered ${String(response.statusCode)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw authFailed(`(the ${what} reply is not JSON)`, error);
  }
  const parsed = tokenReplySchema.safeParse(json);
  if (!parsed.success) throw authFailed(`(the ${what} reply has no access_token)`);
  return {
    accessToken: parsed.data.access_token,
    expiresInSeconds: parsed.data.expires_in ?? 3600,
  };
}

/** The JWT bearer grant: an assertion signed now, exchanged at the key's `token_uri`. */
export function requestServiceAccountToken(
  key: ServiceAccountKey,
  options: { nowMs: number; timeoutMs: number },
): Promise<AccessToken> {
  const assertion = signServiceAccountAssertion(key, Math.floor(options.nowMs / 1000));
  return requestToken({
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
  return requestToken({
    url: `${metadataOrigin(options.metadataHost)}${METADATA_TOKEN_PATH}`,
    what: 'metadata server',
    method: 'GET',
    headers: { 'metadata-flavor': 'Google' },
    timeoutMs: options.timeoutMs,
  });
}
