/**
 * End to end in Chromium against `tollgate local`: display names holding HTML and script (on two
 * ApiKeys and on the demo Account, written with kubectl as any key manager or tenant could) are
 * shown as text on every page that shows them (the keys table and the account picker, the key's
 * page and its delete confirmation, the dashboard, the administrators' accounts list): the
 * markup is visible as characters, no element of it reaches the DOM, no handler runs and no
 * dialog opens.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';

const KEY_ONE = `<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script>`;
const KEY_TWO = `"><svg onload=window.__xss=3><iframe src="javascript:window.__xss=4">`;
const ACCOUNT = `<b onmouseover=window.__xss=5>Team</b><img src=x onerror=window.__xss=6>`;

let run: LocalConsole;
const dialogs: string[] = [];

async function applyKey(name: string, displayName: string): Promise<void> {
  const key = {
    apiVersion: 'tollgate.dev/v1alpha1',
    kind: 'ApiKey',
    metadata: { name, namespace: 'demo' },
    spec: { groupName: 'anthropic', displayName },
  };
  await run.local.kubectl(['apply', '-f', '-'], JSON.stringify(key));
}

beforeAll(async () => {
  run = await startLocalConsole();
  await applyKey('xss-one', KEY_ONE);
  await applyKey('xss-two', KEY_TWO);
  await run.local.kubectl([
    'patch',
    'account',
    'default',
    '-n',
    'demo',
    '--type',
    'merge',
    '-p',
    JSON.stringify({ spec: { displayName: ACCOUNT } }),
  ]);
  run.browser.page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 120_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

/** What of the payloads reached the page as markup or ran, as readable lines (none expected). */
function injected(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const found = [];
    if (window.__xss !== undefined) found.push('a handler ran: window.__xss = ' + window.__xss);
    for (const element of document.querySelectorAll('img[src="x"], svg, iframe, b[onmouseover]')) {
      // The app's own icons and charts are SVG too; the payload's carries its handler.
      if (element.tagName === 'svg' && !element.hasAttribute('onload')) continue;
      found.push('an element from a display name: ' + element.outerHTML.slice(0, 80));
    }
    for (const element of document.querySelectorAll('[onerror], [onload], [onmouseover]')) {
      found.push('an inline handler: ' + element.outerHTML.slice(0, 80));
    }
    for (const script of document.querySelectorAll('script')) {
      if (script.textContent.includes('__xss')) found.push('a script from a display name');
    }
    return found;
  })()`);
}

async function expectShownAsText(page: Page, texts: string[]): Promise<void> {
  const count = (text: string) => page.getByText(text, { exact: false }).count();
  // Until the page shows the names, as text or (the failure) as markup. Counted, not waited for
  // as visible: the account's name is also an option of the account picker.
  await expect
    .poll(
      async () =>
        (await injected(page)).length > 0 ||
        (await Promise.all(texts.map(count))).every((n) => n > 0),
      { timeout: 15_000 },
    )
    .toBe(true);
  expect(await injected(page)).toEqual([]);
  for (const text of texts) expect(await count(text), text).toBeGreaterThan(0);
  expect(dialogs).toEqual([]);
}

describe('display names with markup in Chromium', () => {
  it('are text on every page that shows them', async () => {
    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });

    await page.goto(`${run.consoleUrl}/accounts/demo/keys`);
    await expectShownAsText(page, [KEY_ONE, KEY_TWO, ACCOUNT]);

    await page.goto(`${run.consoleUrl}/accounts/demo/keys/xss-one`);
    await page.getByRole('heading', { name: KEY_ONE }).waitFor();
    await expectShownAsText(page, [KEY_ONE]);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectShownAsText(page, [`Delete ${KEY_ONE}?`]);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${run.consoleUrl}/accounts/demo/keys/xss-two`);
    await page.getByRole('heading', { name: KEY_TWO }).waitFor();
    await expectShownAsText(page, [KEY_TWO]);

    await page.goto(`${run.consoleUrl}/accounts/demo/dashboard`);
    await expectShownAsText(page, [ACCOUNT]);

    await page.goto(`${run.consoleUrl}/admin/accounts`);
    await expectShownAsText(page, [ACCOUNT]);
  });
});
