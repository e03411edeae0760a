/**
 * End to end in Chromium: `tollgate local` (its demo world and simulator), a new key, calls through
 * the gateway (two messages and a token count), then the console at once, without waiting for the
 * operator's status write. The keys list row shows its quota used, windows and today's cost as the
 * same figure and a last use; the records page labels the token count as one, shows first byte,
 * stream and request id, names the time zone, and downloads a CSV named after its filter.
 * Screenshots at 1280 and 390 px, light and dark, go to test-artifacts/console/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';

let run: LocalConsole;
let keyValue: string;

/** Light and dark at 1280 px, then light and dark at 390 px. */
async function shootBothWidths(name: string): Promise<void> {
  const { page } = run.browser;
  for (const [width, height, suffix] of [
    [1280, 800, ''],
    [390, 844, '-narrow'],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await run.browser.shoot(`${name}-${scheme}${suffix}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function callGateway(path: string, body: object): Promise<void> {
  const answer = await fetch(`${run.local.gatewayUrl}${path}`, {
    method: 'POST',
    headers: {
      'x-api-key': keyValue,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(answer.status, await answer.text()).toBe(200);
}

beforeAll(async () => {
  run = await startLocalConsole();
  keyValue = await run.local.createKey({ name: 'live-key', group: 'anthropic' });
  const message = {
    model: 'claude-sonnet-4-6',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'hello' }],
  };
  await callGateway('/v1/messages', message);
  await callGateway('/v1/messages', { ...message, stream: true });
  await callGateway('/v1/messages/count_tokens', {
    model: 'claude-sonnet-4-6',
    messages: [{ role: 'user', content: 'how many tokens?' }],
  });
}, 300_000);

afterAll(async () => {
  await run.stop();
}, 90_000);

describe('the console in Chromium right after calls', () => {
  it('shows one row of figures that agree, and the records with token counts told apart', async () => {
    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });
    // Today is the ledger's: the recorder moves the records there a fraction of a second after
    // the store has them. Once it holds all three, the page is opened.
    const records = async () => {
      const answer = await page.request.get(
        `${run.consoleUrl}/api/v1/accounts/demo/usage/records?key=live-key`,
      );
      return ((await answer.json()) as { records: unknown[] }).records.length;
    };
    await expect.poll(records, { timeout: 10_000 }).toBe(3);
    await page.goto(`${run.consoleUrl}/accounts/demo/keys`);
    const row = page.getByRole('row').filter({ hasText: 'live-key' });
    await row.waitFor();
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`);
    expect(await cell('Last used').textContent()).not.toBe('never');
    const today = (await cell('Today').textContent()) ?? '';
    expect(today).not.toBe('$0.00');
    const quota = (await cell('Quota').textContent()) ?? '';
    const windows = await cell('Windows').locator('li').allTextContents();
    expect(quota.split(' / ')[0]).toBe(today);
    expect(windows).toHaveLength(3);
    for (const window of windows) expect(window).toContain(`${today} / `);
    expect(windows.every((window) => window.includes('resets in'))).toBe(true);
    expect(await page.getByText(/as the operator last recorded them/).count()).toBe(0);
    await shootBothWidths('live-figures-1-keys');

    await page.goto(`${run.consoleUrl}/accounts/demo/keys/live-key/records`);
    const table = page.getByRole('table', { name: 'Usage records of live-key' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const outcomes = await table.locator('td[data-label="Outcome"]').allTextContents();
    expect(outcomes.sort()).toEqual(['Success · 200', 'Success · 200', 'Token count · 200']);
    const streams = await table.locator('td[data-label="Stream"]').allTextContents();
    expect(streams.sort()).toEqual(['no', 'no', 'yes']);
    const ids = await table.locator('td[data-label="Request id"]').allTextContents();
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    const zone = await page.evaluate<string>('Intl.DateTimeFormat().resolvedOptions().timeZone');
    expect(await page.locator('.time-zone').textContent()).toMatch(
      zone === 'UTC'
        ? /^Times in UTC$/
        : new RegExp(`^Times in ${zone} \\(UTC[+-]\\d\\d:\\d\\d\\)$`),
    );
    await shootBothWidths('live-figures-2-records');

    await page.getByLabel('Model').selectOption('claude-sonnet-4-6');
    await expect.poll(() => rows.count()).toBe(3);
    const link = page.getByRole('link', { name: 'Download CSV' });
    expect(await link.getAttribute('download')).toMatch(
      /^tollgate-records-demo-live-key-start-\d{8}T\d{4}Z-claude-sonnet-4-6\.csv$/,
    );
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(
      /^tollgate-records-demo-live-key-start-\d{8}T\d{4}Z-claude-sonnet-4-6\.csv$/,
    );
  });
});
