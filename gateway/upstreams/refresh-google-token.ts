/**
 * Google OAuth access tokens for GoogleOAuth upstreams (Antigravity): exchanged from the Upstream's
 * refresh token with a `grant_type=refresh_token` form POST to its token URL, cached until shortly
 * before `expires_in`, and refreshed once under concurrency (callers share the one exchange in
 * flight). Any failure is a 502 `TG_UPSTREAM_AUTH_FAILED`; token values are never logged.
 */
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import type { GoogleOAuthCredential } from '../spec/resolved-upstream.js';

export interface GoogleTokenCacheOptions {
  clock: () => number;
  /** A token is refreshed this long before it expires. Default 60 s. */
  refreshMarginMs?: number;
  /** Bound on one token exchange (connect, headers and body). Default 10 s. */
  timeoutMs?: number;
}

interface CachedToken {
  accessToken: string;
  /** Epoch ms after which the token is not used any more (expiry minus the margin). */
  useUntil: number;
}

const tokenReplySchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().nonnegative().optional(),
});

/** Largest token reply read. */
const maxReplyBytes = 64 * 1024;

/** One cache entry per credential: a rotated refresh token or secret gets a fresh entry. */
function cacheKey(credential: GoogleOAuthCredential): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        credential.tokenURL,
        credential.clientID,
        credential.clientSecret,
        credential.refreshToken,
      ]),
    )
    .digest('base64url');
}

function authFailed(detail: string, cause?: unknown): GatewayError {
  return new GatewayError('TG_UPSTREAM_AUTH_FAILED', { detail, cause });
}

async function readLimited(body: AsyncIterable<unknown> & { destroy(): unknown }) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxReplyBytes) {
      body.destroy();
      throw authFailed('(the token endpoint reply is too large)');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One token exchange; resolves to the token and its lifetime in seconds (default 3600). */
export async function exchangeRefreshToken(
  credential: GoogleOAuthCredential,
  timeoutMs: number,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: credential.refreshToken,
    client_id: credential.clientID,
    client_secret: credential.clientSecret,
  });
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(credential.tokenURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      // Token exchanges are rare: do not keep a pooled connection open for them.
      reset: true,
    });
  } catch (error) {
    throw authFailed('(the token endpoint could not be reached)', error);
  }
  const text = await readLimited(response.body);
  if (response.statusCode !== 200) {
    throw authFailed(`(the token endpoint answered ${String(response.statusCode)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw authFailed('(the token endpoint reply is not JSON)', error);
  }
  const parsed = tokenReplySchema.safeParse(json);
  if (!parsed.success) throw authFailed('(the token endpoint reply has no access_token)');
  return {
    accessToken: parsed.data.access_token,
    expiresInSeconds: parsed.data.expires_in ?? 3600,
  };
}

export class GoogleTokenCache {
  readonly #tokens = new Map<string, CachedToken>();
  readonly #inFlight = new Map<string, Promise<string>>();
  readonly #clock: () => number;
  readonly #marginMs: number;
  readonly #timeoutMs: number;

  constructor(options: GoogleTokenCacheOptions) {
    this.#clock = options.clock;
    this.#marginMs = options.refreshMarginMs ?? 60_000;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** A valid access token for the credential: cached, or the (single) exchange in flight. */
  accessToken(credential: GoogleOAuthCredential): Promise<string> {
    const key = cacheKey(credential);
    const cached = this.#tokens.get(key);
    if (cached !== undefined && this.#clock() < cached.useUntil) {
      return Promise.resolve(cached.accessToken);
    }
    const running = this.#inFlight.get(key);
    if (running !== undefined) return running;
    const exchange = this.#refresh(key, credential).finally(() => {
      this.#inFlight.delete(key);
    });
    this.#inFlight.set(key, exchange);
    return exchange;
  }

  /** Forgets the cached token of a credential (for example after the upstream refused it). */
  forget(credential: GoogleOAuthCredential): void {
    this.#tokens.delete(cacheKey(credential));
  }

  async #refresh(key: string, credential: GoogleOAuthCredential): Promise<string> {
    const started = this.#clock();
    const { accessToken, expiresInSeconds } = await exchangeRefreshToken(
      credential,
      this.#timeoutMs,
    );
    const useUntil = started + expiresInSeconds * 1000 - this.#marginMs;
    this.#tokens.set(key, { accessToken, useUntil });
    return accessToken;
  }
}
