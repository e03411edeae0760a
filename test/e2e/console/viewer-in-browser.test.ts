/**
 * End to end in Chromium against `tollgate local`: a viewer (the `tollgate-viewer` ClusterRole
 * bound in the demo namespace and `tollgate-group-reader`, a local user added to the users Secret) sees the keys but no
 * "Create key" and no key actions, no "Administration" link, a plain "not allowed" at /admin, and a
 * create forced with the session's cookie and CSRF token is refused by the server with 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../console/server/auth/hash-password.js';
import { shootThemes, signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';

const viewer = { username: 'vera', password: 'vera-viewer-password-1' };
let run: LocalConsole;

/** Adds a local user to the console's users Secret (read again at every sign-in). */
async function addLocalUser(user: { username: string; password: string }): Promise<void> {
  const encoded = await run.local.kubectl([
    'get',
    'secret',
    'tollgate-console-users',
    '-n',
    'tollgate-system',
    '-o',
    'jsonpath={.data.users\\.json}',
  ]);
  const users = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as unknown[];
  users.push({
    username: user.username,
    passwordHash: await hashPassword(user.password),
    groups: [],
  });
  const patch = {
    data: { 'users.json': Buffer.from(JSON.stringify(users)).toString('base64') },
  };
  await run.local.kubectl([
    'patch',
    'secret',
    'tollgate-console-users',
    '-n',
    'tollgate-system',
    '--type',
    'merge',
    '-p',
    JSON.stringify(patch),
  ]);
}

beforeAll(async () => {
  run = await startLocalConsole();
  await addLocalUser(viewer);
  await run.local.kubectl([
    'create',
    'rolebinding',
    'vera-view',
    '--clusterrole',
    'tollgate-viewer',
    '--user',
    viewer.username,
    '-n',
    'demo',
  ]);
  // As docs/rbac.md advises, the Groups too (the key's page reads its group's platform).
  await run.local.kubectl([
    'create',
    'clusterrolebinding',
    'vera-groups',
    '--clusterrole',
    'tollgate-group-reader',
    '--user',
    viewer.username,
  ]);
  await run.local.createKey({ name: 'shared-key', group: 'anthropic' });
}, 120_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

interface Forced {
  status: number;
  body: { error?: { code: string; message: string } };
}

describe('a viewer in Chromium', () => {
  it('reads the keys, is offered no change, and is refused when forcing one', async () => {
    const { page } = run.browser;
    const shoot = (name: string) => shootThemes(run.browser, name);
    await signIn(page, { url: run.consoleUrl, ...viewer });

    // The keys of the demo account, without "Create key".
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    expect(page.url()).toBe(`${run.consoleUrl}/accounts/demo/keys`);
    expect(await page.getByLabel('Signed in as').textContent()).toContain('vera');
    await page.getByRole('link', { name: 'shared-key' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Keys' }).getAttribute('aria-current')).toBe('page');
    // Once the page is idle the access answer has arrived: it says no, and no link appears.
    await page.waitForLoadState('networkidle');
    const access = await page.evaluate<{ administer: boolean; keys: { create: boolean } }>(
      `fetch('/api/v1/me/access?namespace=demo').then((response) => response.json())`,
    );
    expect(access).toMatchObject({ administer: false, keys: { list: true, create: false } });
    expect(await page.getByRole('link', { name: 'Create key' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await shoot('viewer-1-keys');

    // A key's page: its figures, and no Edit, Disable, Reset quota, Rotate or Delete.
    await page.getByRole('link', { name: 'shared-key' }).click();
    await page.getByRole('heading', { name: 'shared-key' }).waitFor();
    await page.getByText('Last used').waitFor();
    await page.getByRole('figure', { name: 'Daily cost, last 30 days' }).waitFor();
    await page.getByRole('region', { name: 'Use this key' }).waitFor();
    await page.waitForLoadState('networkidle');
    for (const name of ['Edit', 'Disable', 'Enable', 'Reset quota', 'Rotate', 'Delete']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
      expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0);
    }
    await shoot('viewer-2-key');

    // Forcing a create with the session's cookie and CSRF token: the server refuses (RBAC).
    const forced = await page.evaluate<Forced>(`(async () => {
      const me = await (await fetch('/api/v1/me')).json();
      const response = await fetch('/api/v1/accounts/demo/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrfToken },
        body: JSON.stringify({ displayName: 'forced-key', groupName: 'anthropic', enabled: true }),
      });
      return { status: response.status, body: await response.json() };
    })()`);
    expect(forced.status).toBe(403);
    expect(forced.body.error?.code).toBe('FORBIDDEN');
    expect(forced.body.error?.message).toMatch(/^.+ is forbidden: User "vera" cannot create/);
    const keys = await run.local.kubectl(['get', 'apikeys', '-n', 'demo', '-o', 'name']);
    expect(keys).not.toContain('forced-key');

    // Administration: not offered, and a plain refusal when opened by its address.
    await page.goto(`${run.consoleUrl}/admin`);
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain(
      'You are not allowed to administer this console',
    );
    expect(await page.getByRole('link', { name: 'Create group' }).count()).toBe(0);
    await shoot('viewer-3-admin-refused');
  }, 170_000);
});
