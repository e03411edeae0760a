/**
 * A fake Google OAuth token endpoint for service accounts (real HTTP on 127.0.0.1). It verifies
 * what Google's verifies of the JWT bearer grant: the form's `grant_type`, an RS256 assertion
 * whose signature checks against the public key of a service account it trusts (a key pair the
 * test made with node:crypto, `createServiceAccount`), `iss` (and `sub` when present) = the
 * account's email, `aud` = this endpoint's address, the cloud-platform scope, and `iat`/`exp` no
 * more than an hour apart with now between them. It issues random tokens that expire
 * (`FakeTokenIssuer`, which the fake Vertex AI server asks whether a bearer token is valid).
 */
import {
  generateKeyPairSync,
  randomBytes,
  verify as verifySignature,
  type KeyObject,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface ServiceAccount {
  clientEmail: string;
  publicKey: KeyObject;
  /** The JSON key as Google hands it out (what the Secret holds). */
  keyJson: string;
}

/** A service account with a fresh RSA key pair, whose key names `tokenUri`. */
export function createServiceAccount(options: {
  tokenUri: string;
  clientEmail?: string;
  projectId?: string;
}): ServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const projectId = options.projectId ?? 'tollgate-test';
  const clientEmail = options.clientEmail ?? `gateway@${projectId}.iam.gserviceaccount.com`;
  const keyJson = JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: clientEmail,
    client_id: '100000000000000000000',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: options.tokenUri,
  });
  return { clientEmail, publicKey, keyJson };
}

/** Tokens issued with an expiry; `accepts` is what a resource server asks. */
export class FakeTokenIssuer {
  readonly #expiries = new Map<string, number>();
  constructor(
    private readonly clock: () => number = Date.now,
    public expiresInSeconds = 3600,
  ) {}

  issue(): { access_token: string; expires_in: number; token_type: 'Bearer' } {
    const token = `ya29.fake-${randomBytes(18).toString('base64url')}`;
    this.#expiries.set(token, this.clock() + this.expiresInSeconds * 1000);
    return { access_token: token, expires_in: this.expiresInSeconds, token_type: 'Bearer' };
  }

  accepts(token: string): boolean {
    const expiry = this.#expiries.get(token);
    return expiry !== undefined && this.clock() < expiry;
  }

  /** Every token issued so far stops being accepted (as after a revocation). */
  revokeAll(): void {
    this.#expiries.clear();
  }

  get issued(): number {
    return this.#expiries.size;
  }
}

export interface FakeGoogleTokenEndpoint {
  /** The token URI (what the key's `token_uri` names). */
  url: string;
  issuer: FakeTokenIssuer;
  /** Grants answered with a token. */
  readonly grants: number;
  /** Grants refused, with Google's reason (`error_description`). */
  readonly refusals: readonly string[];
  trust(account: ServiceAccount): void;
  /** Holds each answer this long (so concurrent callers pile up). */
  replyDelayMs: number;
  close(): Promise<void>;
}

function decodeJson(part: string | undefined): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function checkAssertion(options: {
  assertion: string;
  trusted: ReadonlyMap<string, ServiceAccount>;
  audience: string;
  nowSeconds: number;
}): string | null {
  const parts = options.assertion.split('.');
  if (parts.length !== 3)
    return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe';
  const header = decodeJson(parts[0]);
  const claims = decodeJson(parts[1]);
  if (header === null || claims === null) return 'Invalid JWT: not decodable';
  if (header.alg !== 'RS256') return 'Invalid JWT: alg must be RS256';
  const account = typeof claims.iss === 'string' ? options.trusted.get(claims.iss) : undefined;
  if (account === undefined) return 'Invalid JWT Signature.';
  const signed = Buffer.from(`${parts[0] ?? ''}.${parts[1] ?? ''}`);
  const signature = Buffer.from(parts[2] ?? '', 'base64url');
  if (!verifySignature('RSA-SHA256', signed, account.publicKey, signature)) {
    return 'Invalid JWT Signature.';
  }
  if (claims.sub !== undefined && claims.sub !== claims.iss) return 'Invalid JWT: sub';
  if (claims.aud !== options.audience) return 'Invalid JWT: audience';
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  if (!scopes.includes(CLOUD_PLATFORM_SCOPE)) return 'Invalid JWT: scope';
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number') return 'Invalid JWT: iat/exp';
  const now = options.nowSeconds;
  if (exp - iat > 3600 || iat > now + 60 || exp < now) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  }
  return null;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

export async function startFakeGoogleTokenEndpoint(
  options: { clock?: () => number; expiresInSeconds?: number } = {},
): Promise<FakeGoogleTokenEndpoint> {
  const clock = options.clock ?? Date.now;
  const issuer = new FakeTokenIssuer(clock, options.expiresInSeconds ?? 3600);
  const trusted = new Map<string, ServiceAccount>();
  const refusals: string[] = [];
  let grants = 0;
  let url = '';
  let replyDelayMs = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const form = await readForm(request);
    if (request.method !== 'POST' || !(request.url ?? '').startsWith('/token')) {
      sendJson(response, 404, { error: 'not_found' });
      return;
    }
    if (replyDelayMs > 0) await delay(replyDelayMs);
    const contentType = request.headers['content-type'] ?? '';
    const reason = !contentType.startsWith('application/x-www-form-urlencoded')
      ? 'Content type must be application/x-www-form-urlencoded'
      : form.get('grant_type') !== JWT_BEARER
        ? 'Invalid grant_type'
        : checkAssertion({
            assertion: form.get('assertion') ?? '',
            trusted,
            audience: url,
            nowSeconds: Math.floor(clock() / 1000),
          });
    if (reason !== null) {
      refusals.push(reason);
      sendJson(response, 400, { error: 'invalid_grant', error_description: reason });
      return;
    }
    grants += 1;
    sendJson(response, 200, issuer.issue());
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/token`;
  return {
    url,
    get replyDelayMs() {
      return replyDelayMs;
    },
    set replyDelayMs(value: number) {
      replyDelayMs = value;
    },
    issuer,
    get grants() {
      return grants;
    },
    refusals,
    trust(account: ServiceAccount) {
      trusted.set(account.clientEmail, account);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
