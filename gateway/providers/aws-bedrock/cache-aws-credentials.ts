/**
 * The AWS credentials of Bedrock upstreams: static keys as given; web identity credentials
 * assumed from STS, cached per role and token file until shortly before they expire, and
 * refreshed once under concurrency (callers share the one STS call in flight), as
 * `upstreams/refresh-google-token.ts` does for Google tokens.
 */
import {
  assumeRoleWithWebIdentity,
  stsEndpointFor,
  type WebIdentityCredentials,
} from './assume-role-with-web-identity.js';
import type { AWSCredentials } from '../../spec/resolved-upstream.js';
import type { AwsCredentials } from './sign-aws-request.js';

export type AwsCredentialSettings = AWSCredentials;

export interface AwsCredentialCacheOptions {
  clock: () => number;
  /** The configured STS endpoint (`AWS_ENDPOINT_URL_STS`), null for the regional one. */
  stsEndpoint: string | null;
  /** Credentials are refreshed this long before they expire. Default 5 minutes. */
  refreshMarginMs?: number;
  timeoutMs?: number;
}

export class AwsCredentialCache {
  readonly #cached = new Map<string, WebIdentityCredentials>();
  readonly #inFlight = new Map<string, Promise<AwsCredentials>>();
  readonly #options: AwsCredentialCacheOptions;

  constructor(options: AwsCredentialCacheOptions) {
    this.#options = options;
  }

  credentials(settings: AwsCredentialSettings, region: string): Promise<AwsCredentials> {
    if (settings.type === 'AWSAccessKey') {
      return Promise.resolve({
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
        sessionToken: settings.sessionToken,
      });
    }
    const key = JSON.stringify([settings.roleARN, settings.tokenFile, region]);
    const cached = this.#cached.get(key);
    const margin = this.#options.refreshMarginMs ?? 300_000;
    if (cached !== undefined && this.#options.clock() < cached.expiresAt - margin) {
      return Promise.resolve(cached);
    }
    const running = this.#inFlight.get(key);
    if (running !== undefined) return running;
    const call = assumeRoleWithWebIdentity({
      roleARN: settings.roleARN,
      tokenFile: settings.tokenFile,
      stsEndpoint: stsEndpointFor(region, this.#options.stsEndpoint),
      sessionName: 'tollgate-gateway',
      timeoutMs: this.#options.timeoutMs ?? 10_000,
    })
      .then((credentials) => {
        this.#cached.set(key, credentials);
        return credentials;
      })
      .finally(() => {
        this.#inFlight.delete(key);
      });
    this.#inFlight.set(key, call);
    return call;
  }

  /** Forgets assumed credentials the upstream refused. */
  forget(settings: AwsCredentialSettings, region: string): void {
    if (settings.type !== 'AWSWebIdentity') return;
    this.#cached.delete(JSON.stringify([settings.roleARN, settings.tokenFile, region]));
  }
}
