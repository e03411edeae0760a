/**
 * Test support: a real OpenID provider (the `oidc-provider` package, dev interactions) on
 * 127.0.0.1 with one confidential client, PKCE required, and accounts whose claims include a
 * username, groups and roles (all in the ID token but the email, which is in userinfo only); and a small cookie jar to walk its login and consent pages over HTTP.
 */
import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { request } from 'undici';
import { freePort } from '../../support/redis-server.js';

export interface OidcAccount {
  email: string;
  preferredUsername: string;
  groups: string[];
  roles: string[];
}

export interface OidcProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startOidcProvider(options: {
  client: { id: string; secret: string; redirectUris: string[] };
  accounts: Record<string, OidcAccount>;
  /** Offer the userinfo endpoint (default true). */
  userinfo?: boolean;
}): Promise<OidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.client.id,
        client_secret: options.client.secret,
        redirect_uris: options.client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email'],
      profile: ['preferred_username'],
      groups: ['groups', 'roles'],
    },
    findAccount: (_context, id) => {
      const account = options.accounts[id];
      if (account === undefined) return undefined;
      return {
        accountId: id,
        // The ID token carries every granted claim but the email (it is in userinfo only).
        claims: (use: string) => ({
          sub: id,
          ...(use === 'id_token' ? {} : { email: account.email }),
          preferred_username: account.preferredUsername,
          groups: account.groups,
          roles: account.roles,
        }),
      };
    },
    pkce: { required: () => true },
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: true },
      userinfo: { enabled: options.userinfo ?? true },
    },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
  });
  const server: Server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Cookies by name (paths ignored: the provider's cookie names do not collide). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(header: string | string[] | undefined): void {
    const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const gone = attributes.some((attribute) =>
        /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute),
      );
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface Hop {
  status: number;
  location: string | undefined;
  body: string;
}

/** One request without following redirects; cookies go to and come from the jar. */
export async function hop(
  jar: CookieJar,
  target: { url: string; method?: 'GET' | 'POST'; form?: Record<string, string> },
): Promise<Hop> {
  const cookie = jar.header();
  const response = await request(target.url, {
    method: target.method ?? 'GET',
    headers: {
      ...(cookie === '' ? {} : { cookie }),
      ...(target.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(target.form === undefined ? {} : { body: new URLSearchParams(target.form).toString() }),
  });
  jar.store(response.headers['set-cookie']);
  const body = await response.body.text();
  const location = response.headers.location;
  return {
    status: response.statusCode,
    location: typeof location === 'string' ? new URL(location, target.url).href : undefined,
    body,
  };
}

/**
 * Follows redirects from `url` through the provider's login and consent pages (dev interactions:
 * any password; the login is the account id) until a redirect to `stopAt` (not followed).
 */
export async function walkProvider(
  jar: CookieJar,
  options: { url: string; login: string; stopAt: string },
): Promise<string> {
  let url = options.url;
  for (let step = 0; step < 12; step += 1) {
    if (url.startsWith(options.stopAt)) return url;
    const page = await hop(jar, { url });
    if (page.location !== undefined) {
      url = page.location;
      continue;
    }
    if (page.status !== 200) throw new Error(`provider answered ${page.status}: ${page.body}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
    if (action === undefined) throw new Error(`no form on the provider's page: ${page.body}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page.body)?.[1] ?? 'consent';
    const form: Record<string, string> =
      prompt === 'login' ? { prompt, login: options.login, password: 'any' } : { prompt };
    const submitted = await hop(jar, { url: new URL(action, url).href, method: 'POST', form });
    if (submitted.location === undefined) {
      throw new Error(`the provider did not redirect after ${prompt}: ${submitted.body}`);
    }
    url = submitted.location;
  }
  throw new Error('too many steps at the provider');
}
