/**
 * OpenID Connect sign-in (authorization code with PKCE, S256) with openid-client. The pending
 * sign-in (verifier, state, nonce) is kept server-side under an opaque id in a short-lived cookie.
 * The username and groups come from the configured claims of the ID token (or of userinfo when the
 * ID token lacks either claim), with the configured prefixes.
 */
import * as client from 'openid-client';
import type { ConsoleConfig } from '../console-config.js';
import { ConsoleError } from '../console-error.js';

export type OidcSettings = NonNullable<ConsoleConfig['oidc']>;

export interface OidcUser {
  username: string;
  groups: string[];
}

export interface OidcStart {
  url: string;
  codeVerifier: string;
  state: string;
  nonce: string;
}

export interface OidcSignIn {
  start(): Promise<OidcStart>;
  finish(
    callbackUrl: URL,
    pending: { codeVerifier: string; state: string; nonce: string },
  ): Promise<OidcUser>;
}

function claimStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

export function userFromClaims(claims: Record<string, unknown>, settings: OidcSettings): OidcUser {
  const username = claims[settings.usernameClaim];
  if (typeof username !== 'string' || username === '') {
    throw new ConsoleError(
      'UNAUTHENTICATED',
      `The identity provider did not send the '${settings.usernameClaim}' claim.`,
    );
  }
  return {
    username: settings.usernamePrefix + username,
    groups: claimStrings(claims[settings.groupsClaim]).map(
      (group) => settings.groupsPrefix + group,
    ),
  };
}

export function createOidcSignIn(settings: OidcSettings): OidcSignIn {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = (): Promise<client.Configuration> => {
    discovered ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        settings.clientSecret === undefined ? client.None() : undefined,
        // The test issuer runs on http://127.0.0.1; never enabled from flags.
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        settings.allowInsecureIssuer ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw new ConsoleError(
          'SIGN_IN_UNAVAILABLE',
          `The identity provider at ${settings.issuer} could not be reached.`,
          { cause: error },
        );
      });
    return discovered;
  };
  return {
    async start() {
      const config = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUrl,
        scope: settings.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url: url.href, codeVerifier, state, nonce };
    },
    async finish(callbackUrl, pending) {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new ConsoleError(
          'UNAUTHENTICATED',
          'The sign-in with the identity provider failed.',
          {
            cause: error,
          },
        );
      }
      const claims: Record<string, unknown> = { ...tokens.claims() };
      // Providers differ in what the ID token carries: ask userinfo when either claim is missing.
      const missing = !(settings.groupsClaim in claims) || !(settings.usernameClaim in claims);
      if (missing && config.serverMetadata().userinfo_endpoint !== undefined) {
        try {
          const info = await client.fetchUserInfo(config, tokens.access_token, String(claims.sub));
          Object.assign(claims, info);
        } catch (error) {
          throw new ConsoleError(
            'UNAUTHENTICATED',
            'The identity provider refused the userinfo request.',
            { cause: error },
          );
        }
      }
      return userFromClaims(claims, settings);
    },
  };
}
