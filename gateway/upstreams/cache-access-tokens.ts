/**
 * Access tokens cached per credential and refreshed once under concurrency: callers asking while a
 * request for the same credential is in flight share it; a token is used until shortly before its
 * expiry. The cache key is a hash of what identifies the credential (its secret included, so a
 * rotated secret gets a fresh entry), never the secret itself.
 */
import { createHash } from 'node:crypto';
import type { IssuedToken } from './post-token-form.js';

export interface AccessTokenCacheOptions {
  clock: () => number;
  /** A token is refreshed this long before it expires. Default 60 s. */
  refreshMarginMs?: number;
}

/** The cache key of a credential's identifying parts. */
export function credentialKey(parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

export class AccessTokenCache {
  readonly #tokens = new Map<string, { accessToken: string; useUntil: number }>();
  readonly #inFlight = new Map<string, Promise<string>>();
  readonly #clock: () => number;
  readonly #marginMs: number;

  constructor(options: AccessTokenCacheOptions) {
    this.#clock = options.clock;
    this.#marginMs = options.refreshMarginMs ?? 60_000;
  }

  /** The cached token for `key`, or the one request in flight, or a new one from `issue`. */
  token(key: string, issue: () => Promise<IssuedToken>): Promise<string> {
    const cached = this.#tokens.get(key);
    if (cached !== undefined && this.#clock() < cached.useUntil) {
      return Promise.resolve(cached.accessToken);
    }
    const running = this.#inFlight.get(key);
    if (running !== undefined) return running;
    const started = this.#clock();
    const request = issue()
      .then(({ accessToken, expiresInSeconds }) => {
        const useUntil = started + expiresInSeconds * 1000 - this.#marginMs;
        this.#tokens.set(key, { accessToken, useUntil });
        return accessToken;
      })
      .finally(() => {
        this.#inFlight.delete(key);
      });
    this.#inFlight.set(key, request);
    return request;
  }

  forget(key: string): void {
    this.#tokens.delete(key);
  }
}
