/**
 * End to end in Chromium against `tollgate local`: the dashboard's one period control (the trend,
 * the models and the top keys ask for the same range, kept in the address); the Account picker
 * (the demo namespace with its Account; a namespace without one apart, for the administrator, with
 * a link that opens the admin form with the namespace filled in, and once created it joins the
 * others); the top bar keeps the keys, dashboard, members and administration links on administration
 * pages. Screenshots at 1280 and 390 pixels in both themes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';
import { shootWidthsAndThemes } from './shoot-widths-and-themes.js';

let run: LocalConsole;
const LONELY = 'lonely';
/** The usage calls the page made: path end (`trend`, `models`, `top-keys`) and their range. */
const usageCalls: { path: string; range: string }[] = [];

beforeAll(async () => {
  run = await startLocalConsole();
  await run.local.kubectl(['create', 'namespace', LONELY]);
  run.browser.page.on('request', (request) => {
    const url = new URL(request.url());
    const match = /\/api\/v1\/accounts\/[^/]+\/usage\/(trend|models|top-keys)$/.exec(url.pathname);
    if (match?.[1] === undefined) return;
    const range = `${url.searchParams.get('from')} ${url.searchParams.get('to')}`;
    usageCalls.push({ path: match[1], range });
  });
}, 180_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

/** The last range each of the three panels asked for. */
function lastRanges(): string[] {
  return ['trend', 'models', 'top-keys'].map(
    (path) => usageCalls.filter((call) => call.path === path).at(-1)?.range ?? `no ${path} call`,
  );
}

/** The picker's options: those outside any group, and those of the "Without an Account" group. */
function pickerOptions(page: Page): Promise<{ top: string[]; without: string[] }> {
  return page.evaluate<{ top: string[]; without: string[] }>(`(() => {
    const select = [...document.querySelectorAll('label')]
      .find((label) => label.firstChild?.textContent?.trim() === 'Account')
      ?.querySelector('select');
    if (!select) return { top: ['no picker'], without: [] };
    const group = select.querySelector('optgroup[label="Without an Account"]');
    return {
      top: [...select.children].filter((child) => child.tagName === 'OPTION').map((o) => o.textContent),
      without: group ? [...group.querySelectorAll('option')].map((o) => o.textContent) : [],
    };
  })()`);
}

/** The top bar's links as `text -> href`. */
function topBarLinks(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.querySelectorAll('nav[aria-label="Main"] a')]
    .map((a) => a.textContent + ' -> ' + a.getAttribute('href'))`);
}

describe('dashboard in Chromium', () => {
  it('has one period for the trend, the models and the top keys', async () => {
    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });
    await page.goto(`${run.consoleUrl}/accounts/demo/dashboard`);
    await page
      .getByRole('table', { name: 'Top keys by cost' })
      .or(page.getByText('No usage in this period.').first())
      .first()
      .waitFor();
    expect(await page.getByRole('group', { name: 'Period' }).count()).toBe(1);
    expect(await page.getByLabel('Period', { exact: true }).locator('select').count()).toBe(0);
    await expect.poll(() => new Set(lastRanges()).size, { timeout: 15_000 }).toBe(1);

    for (const [label, period] of [
      ['Last 7 days', '7d'],
      ['Last 30 days', '30d'],
    ] as const) {
      const before = usageCalls.length;
      await page
        .getByRole('group', { name: 'Period' })
        .getByRole('button', { name: label })
        .click();
      expect(new URL(page.url()).search).toBe(`?period=${period}`);
      await expect
        .poll(() => usageCalls.length, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(before + 3);
      await expect.poll(() => new Set(lastRanges()).size, { timeout: 15_000 }).toBe(1);
      await page.getByText(`Share of the cost, ${label.toLowerCase()}.`).waitFor();
      const [from = '', to = ''] = lastRanges()[0]?.split(' ') ?? [];
      const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
      expect(days).toBeGreaterThan(period === '7d' ? 6 : 29);
      expect(days).toBeLessThanOrEqual(period === '7d' ? 7.05 : 30.05);
    }
    // The period survives a reload: it is in the address.
    await page.reload();
    await page.getByRole('button', { name: 'Last 30 days', pressed: true }).waitFor();
    await page.getByRole('region', { name: 'Balance' }).waitFor();
    await page.getByRole('figure', { name: 'Cost per day, last 30 days' }).waitFor();
    await page.locator('.account-picker select').waitFor();
    await shootWidthsAndThemes(run.browser, 'dashboard-period');
  });

  it('lists namespaces without an Account apart, with a way to create one', async () => {
    const { page } = run.browser;
    await page.goto(`${run.consoleUrl}/accounts/demo/dashboard`);
    await expect
      .poll(async () => (await pickerOptions(page)).without, { timeout: 15_000 })
      .toContain(`${LONELY} (keys are refused)`);
    const { top } = await pickerOptions(page);
    expect(top.length).toBeGreaterThan(0);
    for (const option of top) expect(option).not.toContain('keys are refused');
    expect(top).not.toContain(LONELY);

    await page.locator('.account-picker select').selectOption(LONELY);
    await page.waitForURL(`**/accounts/${LONELY}/dashboard**`);
    const create = page.getByRole('link', { name: `Create the Account of ${LONELY}` });
    await create.waitFor();
    await shootWidthsAndThemes(run.browser, 'dashboard-without-account');
    await create.click();
    await page.waitForURL(`**/admin/accounts/new?namespace=${LONELY}`);
    expect(await page.getByLabel('Namespace').inputValue()).toBe(LONELY);

    // The top bar on an administration page: every link, to the account last shown.
    expect(await topBarLinks(page)).toEqual([
      `Keys -> /accounts/${LONELY}/keys`,
      `Dashboard -> /accounts/${LONELY}/dashboard`,
      `Members -> /accounts/${LONELY}/members`,
      `Notifications -> /accounts/${LONELY}/notifiers`,
      'Administration -> /admin',
    ]);
    await shootWidthsAndThemes(run.browser, 'dashboard-admin-top-bar');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/accounts?created=*');

    // Now it has an Account: listed with the others, no link to create it.
    await page.goto(`${run.consoleUrl}/accounts/demo/dashboard`);
    await expect
      .poll(async () => (await pickerOptions(page)).top, { timeout: 15_000 })
      .toContain(LONELY);
    expect((await pickerOptions(page)).without).not.toContain(`${LONELY} (keys are refused)`);
  });

  it('keeps every top bar link on administration pages opened first', async () => {
    const { page } = run.browser;
    // A fresh load of an administration page: the account comes from the accounts list.
    await page.goto(`${run.consoleUrl}/admin/groups`);
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    await expect
      .poll(() => topBarLinks(page), { timeout: 15_000 })
      .toEqual([
        'Keys -> /accounts/demo/keys',
        'Dashboard -> /accounts/demo/dashboard',
        'Members -> /accounts/demo/members',
        'Notifications -> /accounts/demo/notifiers',
        'Administration -> /admin',
      ]);
  });
});
