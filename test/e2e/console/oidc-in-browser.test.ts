/**
 * End to end in Chromium: the console (with the built web app, against the local control plane
 * with RBAC on) offers OIDC only; a real OpenID provider (oidc-provider on 127.0.0.1, PKCE
 * required) signs the user in through its own login and consent pages; the console shows the user
 * name (the email, from userinfo) and the groups (from the ID token), the keys its group may manage,
 * and signs out. Requests leaving 127.0.0.1 are refused by the browser.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { startPlane, type Plane } from '../../integration/control-plane/control-plane-harness.js';
import { buildConsole } from '../../integration/console/console-harness.js';
import {
  startOidcProvider,
  type OidcProvider,
} from '../../integration/console/oidc-provider-harness.js';
import { freePort } from '../../support/redis-server.js';
import { shootThemes } from './browser-steps.js';
import { buildWebApp, openBrowser, type ConsoleBrowser } from '../../support/console-browser.js';

const webRoot = fileURLToPath(new URL('../../../console/web/dist', import.meta.url));

let plane: Plane;
let provider: OidcProvider;
let app: ConsoleApp;
let browser: ConsoleBrowser;
let base: string;

beforeAll(async () => {
  await buildWebApp();
  browser = await openBrowser();
  // Only 127.0.0.1: the provider's page asks for a web font, which is refused here.
  await browser.context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort(),
  );
  plane = await startPlane();
  await plane.ok(['create', 'namespace', 'team-o']);
  await plane.ok([
    'create',
    'rolebinding',
    'o-managers',
    '--clusterrole',
    'tollgate-key-manager',
    '--group',
    'team-o-managers',
    '-n',
    'team-o',
  ]);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider({
    client: {
      id: 'tollgate-console',
      secret: 'console-client-secret',
      redirectUris: [`${base}/api/v1/auth/oidc/callback`],
    },
    accounts: {
      olga: {
        email: 'olga@example.test',
        preferredUsername: 'olga',
        groups: ['team-o-managers', 'readers'],
        roles: [],
      },
    },
  });
  app = buildConsole(plane, {
    config: {
      localUsers: false,
      webRoot,
      oidc: {
        issuer: provider.issuer,
        clientId: 'tollgate-console',
        clientSecret: 'console-client-secret',
        redirectUrl: `${base}/api/v1/auth/oidc/callback`,
        displayName: 'Example ID',
        allowInsecureIssuer: true,
      },
    },
  });
  await app.listen({ host: '127.0.0.1', port });
}, 120_000);

afterAll(async () => {
  await browser.close();
  await app.close();
  await provider.close();
  await plane.stop();
}, 60_000);

describe('OIDC sign-in in Chromium', () => {
  it('signs in at the provider, shows the user and groups, and signs out', async () => {
    const { page } = browser;
    await page.goto(`${base}/accounts/team-o/keys`);
    const start = page.getByRole('link', { name: 'Sign in with Example ID' });
    await start.waitFor();
    // Local users are off: no password form.
    expect(await page.getByLabel('Password').count()).toBe(0);
    await shootThemes(browser, 'oidc-1-sign-in');

    // The provider's own pages: login (any password), then consent.
    await start.click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('olga');
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    // Back on the page asked for, signed in as the email with the ID token's groups.
    await page.waitForURL(`${base}/accounts/team-o/keys`);
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    const who = page.getByLabel('Signed in as');
    expect(await who.textContent()).toContain('olga@example.test');
    expect(await who.textContent()).toContain('team-o-managers, readers');
    // RBAC as that identity: the group manages team-o's keys.
    await page.getByRole('link', { name: 'Create key' }).waitFor();
    await shootThemes(browser, 'oidc-2-signed-in');

    // Sign out: the session ends on the server; a reload offers the provider again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await start.waitFor();
    await page.reload();
    await start.waitFor();
    const me = await page.evaluate<number>(`fetch('/api/v1/me').then((r) => r.status)`);
    expect(me).toBe(401);
  }, 120_000);
});
