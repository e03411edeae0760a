/**
 * The JWT a Google service account signs to ask for an access token (the OAuth 2.0 JWT bearer
 * grant, RFC 7523): header `{"alg":"RS256","typ":"JWT","kid":<private_key_id>}`, claims `iss` and
 * `sub` = the key's `client_email`, `aud` = its `token_uri`, `scope` = cloud-platform, `iat` now
 * and `exp` one hour later; signed RS256 with the key's PEM `private_key` (node:crypto). Pure: the
 * time comes in. The key is parsed once per credential (`parseServiceAccountKey`).
 */
import { createPrivateKey, createSign, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Where tokens are asked for when a key names no `token_uri` (the address Google's keys carry). */
export const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** The assertion's lifetime: Google accepts at most one hour. */
const ASSERTION_LIFETIME_SECONDS = 3600;

const serviceAccountKeySchema = z.looseObject({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.url().optional(),
});

export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: KeyObject;
  privateKeyId: string | null;
  tokenUri: string;
}

function keyRefused(detail: string, cause?: unknown): GatewayError {
  return new GatewayError('TG_UPSTREAM_AUTH_FAILED', { detail, cause });
}

/** The service account's JSON key, read and its private key loaded; throws when it is not one. */
export function parseServiceAccountKey(json: string): ServiceAccountKey {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw keyRefused('(the service account key is not JSON)', error);
  }
  const parsed = serviceAccountKeySchema.safeParse(value);
  if (!parsed.success) {
    throw keyRefused('(the service account key has no client_email or private_key)');
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(parsed.data.private_key);
  } catch (error) {
    throw keyRefused('(the service account key has no readable private_key)', error);
  }
  return {
    clientEmail: parsed.data.client_email,
    privateKey,
    privateKeyId: parsed.data.private_key_id ?? null,
    tokenUri: parsed.data.token_uri ?? DEFAULT_TOKEN_URI,
  };
}

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The signed assertion (`header.claims.signature`) for a token asked for at `nowSeconds`. */
export function signServiceAccountAssertion(key: ServiceAccountKey, nowSeconds: number): string {
  const header = {
    alg: 'RS256',
    typ: 'JWT',
    ...(key.privateKeyId === null ? {} : { kid: key.privateKeyId }),
  };
  const claims = {
    iss: key.clientEmail,
    sub: key.clientEmail,
    aud: key.tokenUri,
    scope: CLOUD_PLATFORM_SCOPE,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_LIFETIME_SECONDS,
  };
  const signingInput = `${base64UrlJson(header)}.${base64UrlJson(claims)}`;
  const signature = createSign('RSA-SHA256').update(signingInput).sign(key.privateKey);
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** The form the token endpoint takes for the grant. */
export function jwtBearerGrantForm(assertion: string): string {
  return new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion,
  }).toString();
}
