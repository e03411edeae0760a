/**
 * End to end in Chromium: `tollgate local` (its demo world and fake provider) serves the console
 * web app; the admin signs in, sees the keys page, fills the create form (a live refusal of a short
 * value, then a chosen value and limits), reads the value shown once, calls the gateway with it
 * through the official Anthropic SDK, sees the key in the table, meets a server refusal next to
 * the action with the form's input kept, finds the call on the key's page, its records page (and
 * CSV) and the account's dashboard; disables the key (the SDK is refused) and enables it (accepted
 * again), resets its quota ($0 used), rotates it, moves it to another group, deletes it, and signs
 * out. Screenshots of every page in light, dark and a narrow window go to test-artifacts/console/.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalProcess, type LocalProcess } from '../../integration/first-run/local-process.js';
import { callUntilAccepted as callUntilAcceptedAt } from './call-gateway.js';
import { buildWebApp, openBrowser, type ConsoleBrowser } from '../../support/console-browser.js';

const data = mkdtempSync(join(tmpdir(), 'tollgate-console-e2e-'));
let local: LocalProcess;
let browser: ConsoleBrowser;
let consoleUrl: string;

beforeAll(async () => {
  await buildWebApp();
  local = await startLocalProcess(data);
  const match = /^\s+console:\s+(\S+)/m.exec(local.output());
  if (match?.[1] === undefined) throw new Error(`no console address:\n${local.output()}`);
  consoleUrl = match[1];
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser.close();
  await local.stop();
  rmSync(data, { recursive: true, force: true });
}, 60_000);

/** Light, dark, and a narrow dark window, of the page as it is now. */
async function shootThemes(name: string): Promise<void> {
  const { page } = browser;
  await page.emulateMedia({ colorScheme: 'light' });
  await browser.shoot(`${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await browser.shoot(`${name}-dark`);
  await page.setViewportSize({ width: 390, height: 844 });
  // Charts follow their container's size on the next frame.
  await page.waitForTimeout(300);
  await browser.shoot(`${name}-narrow`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(300);
  await page.emulateMedia({ colorScheme: 'light' });
}

function callUntilAccepted(value: string): Promise<string> {
  return callUntilAcceptedAt(local.gatewayUrl, value);
}

/**
 * After a rotation (401) or a disable (403) the value stops working at the operator's next
 * reconcile: calls until the gateway refuses it, and returns the refusal's status.
 */
async function callUntilRefused(value: string): Promise<number> {
  const anthropic = new Anthropic({ apiKey: value, baseURL: local.gatewayUrl, maxRetries: 0 });
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await anthropic.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'still there?' }],
      });
    } catch (error) {
      if (
        error instanceof Anthropic.AuthenticationError ||
        error instanceof Anthropic.PermissionDeniedError
      ) {
        return error.status;
      }
      throw error;
    }
    if (Date.now() > until) throw new Error('the value still works');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Until `read` returns true, reloading the page between tries (the ledger fills in moments). */
async function untilShown(read: () => Promise<boolean>, what: string): Promise<void> {
  const { page } = browser;
  const until = Date.now() + 30_000;
  while (!(await read())) {
    if (Date.now() > until) throw new Error(`not shown in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.reload();
  }
}

describe('console web app in Chromium', () => {
  it('signs in, creates a key with a chosen value, uses it, lists it, signs out', async () => {
    const { page } = browser;
    const password = readFileSync(join(data, 'console-admin-password'), 'utf8').trim();
    await page.goto(consoleUrl);

    // Sign-in: a wrong password is refused in plain words, the username is kept.
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong username');
    expect(await page.getByLabel('Username').inputValue()).toBe('admin');
    await page.getByLabel('Password').fill('');
    await shootThemes('1-sign-in');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Keys page of the demo account, with the session's user and groups.
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    const who = page.getByLabel('Signed in as');
    expect(await who.textContent()).toContain('admin');
    // The demo account (the first with an Account) is chosen; others are offered.
    expect(page.url()).toBe(`${consoleUrl}/accounts/demo/keys`);
    expect(await page.getByLabel('Account').inputValue()).toBe('demo');
    await page.getByText('No keys yet').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'keys' }).textContent()).toBe('0 keys');
    await shootThemes('2-keys-empty');

    // Create form: the chosen value is checked live.
    await page.getByRole('link', { name: 'Create key' }).click();
    expect(await page.getByLabel('Account').inputValue()).toBe('demo');
    await page.getByLabel('Name', { exact: true }).fill('console-e2e');
    // The object name made of the name, shown as it is typed.
    const objectHint = (await page.getByText(/Object name: /).textContent()) ?? '';
    const objectName = /Object name: (console-e2e-[a-z0-9]{5})$/.exec(objectHint)?.[1] ?? '';
    expect(objectName, objectHint).not.toBe('');
    await page.getByLabel('Group').selectOption('anthropic');
    expect(await page.getByText('Platform Anthropic').textContent()).toContain('×1');
    await page.getByLabel('Key value').fill('too-short');
    expect(await page.getByText('At least 16 characters').textContent()).toContain('now 9');
    const value = 'tg_console-e2e_0123456789abcdef';
    await page.getByLabel('Key value').fill(value);
    expect(await page.getByText('At least 16 characters').count()).toBe(0);
    await page.getByLabel('Quota (USD)').fill('5');
    await page.getByLabel('Daily cap (USD)').fill('2.50');
    await page.getByLabel('Allowed addresses').fill('10.0.0.0/8\nnot-an-address');
    await page.getByLabel('Allowed addresses').blur();
    expect(await page.getByText('Line 2 ("not-an-address")').count()).toBe(1);
    await page.getByLabel('Allowed addresses').fill('127.0.0.0/8\n::1');
    await page.getByLabel('Valid for a period').check();
    await page.getByRole('button', { name: '90 days' }).click();
    expect(await page.getByLabel('Valid for (days)').inputValue()).toBe('90');
    await shootThemes('3-create-form');
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    // The value, shown once.
    await page.getByText('you will not see it again').waitFor();
    expect(await page.getByLabel('New key value').textContent()).toBe(value);
    // "Use this key": the tools' configuration carries the value and the gateway's address.
    const useKey = page.getByRole('region', { name: 'Use this key' });
    expect(await useKey.textContent()).toContain(value);
    expect(await useKey.textContent()).toContain(local.gatewayUrl);
    await shootThemes('4-created');

    // The value works at the gateway.
    const answer = await callUntilAccepted(value);
    expect(answer.length).toBeGreaterThan(0);

    // The table lists it with its group, state and quota.
    await page.getByRole('link', { name: 'Back to the keys' }).click();
    const row = page.getByRole('row').filter({ hasText: 'console-e2e' });
    await row.waitFor();
    // Today's cost comes from the usage ledger once the call is recorded.
    const today = row.locator('td[data-label="Today"]');
    const until = Date.now() + 30_000;
    while ((await today.textContent()) === '$0.00' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await page.reload();
      await row.waitFor();
    }
    expect(await today.textContent()).not.toBe('$0.00');
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('anthropic');
    expect(text).toContain('enabled');
    expect(text).toContain('$5.00');
    expect(text).toContain('$2.50');
    await page.getByLabel('Search keys').fill('no-such-key');
    expect(await page.getByRole('row').filter({ hasText: 'console-e2e' }).count()).toBe(0);
    await page.getByLabel('Search keys').fill('');
    await shootThemes('5-keys');

    // The same object name again (chosen under Advanced): the server's refusal is shown next to
    // that field, the input is kept.
    await page.getByRole('link', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('console-e2e');
    await page.getByText('Advanced').click();
    await page.getByLabel('Object name').fill(objectName);
    await page.getByLabel('Group').selectOption('anthropic');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const nameField = page.getByLabel('Object name');
    await expect
      .poll(() => nameField.getAttribute('aria-invalid'), { timeout: 15_000 })
      .toBe('true');
    const describedBy = (await nameField.getAttribute('aria-describedby')) ?? '';
    const described = await Promise.all(
      describedBy.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    expect(described.join(' ')).toContain(`A key named "${objectName}" already exists`);
    expect(await nameField.inputValue()).toBe(objectName);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('console-e2e');
    expect(await page.getByLabel('Group').inputValue()).toBe('anthropic');
    await shootThemes('6-create-refused');

    // The key's page: usage with its chart, then disable, enable, reset quota, rotate, delete.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'console-e2e' }).click();
    await page.getByRole('heading', { name: 'console-e2e' }).waitFor();
    const usage = page.getByRole('region', { name: 'Usage' });
    await usage.getByRole('figure', { name: 'Daily cost, last 30 days' }).waitFor();
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    // Later, the configuration has a placeholder: the value is never read back.
    const later = page.getByRole('region', { name: 'Use this key' });
    await later.waitFor();
    expect(await later.textContent()).toContain('<your-tollgate-key>');
    expect(await later.textContent()).not.toContain(value);
    expect(await usage.getByText(/^\$0\.\d+ · 1 request$/).count()).toBe(2);
    await shootThemes('7-key');

    // The key's records: the call with its model and tokens; filters; the CSV of the filter.
    await usage.getByRole('link', { name: 'Usage records' }).click();
    await page.getByRole('heading', { name: 'Usage records of console-e2e' }).waitFor();
    const records = page.getByRole('table', { name: 'Usage records of console-e2e' });
    await records.waitFor();
    const recordRows = records.locator('tbody tr');
    expect(await recordRows.count()).toBe(1);
    const cell = (label: string) => recordRows.first().locator(`[data-label="${label}"]`);
    expect(await cell('Model').textContent()).toContain('claude-sonnet-4-6');
    expect(Number((await cell('Input').textContent())?.replaceAll(',', ''))).toBeGreaterThan(0);
    expect(Number((await cell('Output').textContent())?.replaceAll(',', ''))).toBeGreaterThan(0);
    expect(await cell('Cost').textContent()).toMatch(/^\$0\.\d+$/);
    expect(await cell('Outcome').textContent()).toBe('Success · 200');
    await shootThemes('7-key-records');
    const csvHref =
      (await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')) ?? '';
    const csv = await page.request.get(new URL(csvHref, consoleUrl).toString());
    expect(csv.status()).toBe(200);
    const csvLines = (await csv.text()).trim().split(/\r\n/);
    expect(csvLines).toHaveLength(2);
    expect(csvLines[1]).toContain('claude-sonnet-4-6');
    await page.getByLabel('Outcome').selectOption('server_error');
    await page.getByText('No records match.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await recordRows.first().waitFor();

    // The account's dashboard: the call in the trend, the model mix and the top keys.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const totals = page.getByLabel('Totals, last 24 hours');
    await expect.poll(() => totals.textContent(), { timeout: 15_000 }).toContain('1 request');
    await page
      .getByRole('figure', { name: 'Cost per hour, last 24 hours' })
      .locator('.recharts-bar-rectangle')
      .first()
      .waitFor();
    const modelTable = page.getByRole('table', { name: 'Usage per model' });
    expect(
      await modelTable.getByRole('row').filter({ hasText: 'claude-sonnet-4-6' }).textContent(),
    ).toContain('100.0%');
    const topKeys = page.getByRole('table', { name: 'Top keys by cost' });
    const topRow = topKeys.getByRole('row').filter({ hasText: 'console-e2e' });
    expect(await topRow.textContent()).toContain('100.0%');
    await page
      .getByRole('figure', { name: 'Model distribution, last 24 hours' })
      .locator('.recharts-pie-sector')
      .first()
      .waitFor();
    const balance = page.getByRole('region', { name: 'Balance' });
    expect(await balance.textContent()).toContain('$100.00');
    expect(await page.getByLabel('Requests in flight').textContent()).toBe('0 / unlimited');
    await shootThemes('7-dashboard');
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    await expect
      .poll(() => page.getByLabel('Totals, last 30 days').textContent(), { timeout: 15_000 })
      .toContain('1 request');
    await topKeys.getByRole('link', { name: 'console-e2e' }).click();
    await page.getByRole('heading', { name: 'console-e2e' }).waitFor();

    // Edit: a new quota, the daily cap removed, a denied address; back on the key's page.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit key console-e2e' }).waitFor();
    expect(await page.getByLabel('Quota (USD)').inputValue()).toBe('5');
    expect(await page.getByLabel('Allowed addresses').inputValue()).toBe('127.0.0.0/8\n::1');
    await page.getByLabel('Quota (USD)').fill('7');
    await page.getByLabel('Daily cap (USD)').fill('');
    await page.getByLabel('Denied addresses').fill('203.0.113.7');
    await shootThemes('7-key-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'console-e2e' }).waitFor();
    // The quota used (the ledger's, since the key was created) against the new limit.
    await expect.poll(() => page.getByText(/^\$0\.\d+ \/ \$7\.00$/).count()).toBe(1);

    // Disabled, the key is refused at the gateway; the page never says "Suspended" of an
    // enabled key, nor "ready" of a disabled one.
    const readyText = () =>
      page
        .locator('dt', { hasText: 'Ready' })
        .locator('xpath=following-sibling::dd[1]')
        .textContent();
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Done: the key is disabled.').waitFor();
    expect(await readyText()).not.toBe('ready');
    expect(await callUntilRefused(value)).toBe(403);
    await expect.poll(readyText, { timeout: 15_000 }).toContain('Suspended');
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Done: the key is enabled.').waitFor();
    expect(await readyText()).not.toContain('Suspended');
    expect(await callUntilAccepted(value)).not.toBe('');
    await expect.poll(readyText, { timeout: 15_000 }).toBe('ready');

    // Reset: the quota's use starts again from $0 (the ledger learns of the reset in moments).
    await page.getByRole('button', { name: 'Reset quota' }).click();
    await page.getByText('Start the used quota of console-e2e again from $0?').waitFor();
    await shootThemes('8-key-confirm-reset');
    await page.getByRole('button', { name: 'Reset the quota' }).click();
    await page.getByText('Done: the used quota starts again from $0.').waitFor();
    await expect
      .poll(() => usage.getByText(/^\$0\.00 of \$7\.00/).count(), { timeout: 20_000 })
      .toBe(1);
    await untilShown(
      async () => (await page.getByText('$0.00 / $7.00').count()) === 1,
      'the key quota used at $0',
    );

    await page.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('button', { name: 'Rotate the value' }).click();
    await page.getByText('Key console-e2e rotated').waitFor();
    const rotated = (await page.getByLabel('New key value').textContent()) ?? '';
    expect(rotated).toMatch(/^sk-tg-[A-Za-z0-9]{40}$/);
    expect(await callUntilAccepted(rotated)).not.toBe('');
    expect(await callUntilRefused(value)).toBe(401);

    // Another group of the demo world: the key's page shows it.
    await page.getByRole('link', { name: 'Back to the keys' }).click();
    await page.getByRole('link', { name: 'console-e2e' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit key console-e2e' }).waitFor();
    // The operator writes the key's status after the rotation (its hint, readiness): a status
    // write is not a change of its settings, so the edit is saved without reloading the form.
    await page.getByLabel('Group').selectOption('openai');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'console-e2e', exact: true }).waitFor();
    const groupText = () =>
      page
        .locator('dt', { hasText: 'Group' })
        .locator('xpath=following-sibling::dd[1]')
        .textContent();
    expect(await groupText()).toBe('openai');
    await page.reload();
    await page.getByRole('heading', { name: 'console-e2e' }).waitFor();
    expect(await groupText()).toBe('openai');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete the key' }).click();
    await page.getByText('No keys yet').waitFor();

    // Sign out: back to the sign-in form; the session is gone on the server.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  }, 300_000);
});
