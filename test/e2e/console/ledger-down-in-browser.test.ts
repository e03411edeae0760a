/**
 * End to end in Chromium: `tollgate local` with its usage ledger on the machine's PostgreSQL,
 * reached through a TCP proxy the test then cuts. With the ledger gone the keys page still lists
 * the keys, says their usage is unavailable (today's cost "unavailable", a note above the table),
 * a key's page shows the key with its usage card saying the same, a key can still be disabled and
 * enabled, and the CSV export answers 503 before it starts. Screenshots in light, dark and a
 * 390 px window go to test-artifacts/console/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, MAINTENANCE_URL } from '../../support/ledger/ledger-test-databases.js';
import { startCuttableProxy, type CuttableProxy } from '../../support/cuttable-tcp-proxy.js';
import { shootThemes, signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';

let run: LocalConsole;
let proxy: CuttableProxy;
let dropDatabase: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  dropDatabase = database.drop;
  const server = new URL(MAINTENANCE_URL);
  proxy = await startCuttableProxy({ host: server.hostname, port: Number(server.port || 5432) });
  const viaProxy = new URL(database.databaseUrl);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  run = await startLocalConsole(['--database-url', viaProxy.toString()]);
  await run.local.createKey({ name: 'ledgerless-key', group: 'anthropic' });
}, 120_000);

afterAll(async () => {
  await run.stop();
  await proxy.close();
  await dropDatabase();
}, 90_000);

describe('the console in Chromium with the usage ledger unreachable', () => {
  it('lists and manages keys, their usage shown as unavailable', async () => {
    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });
    const row = page.getByRole('row').filter({ hasText: 'ledgerless-key' });
    await row.waitFor();
    const today = row.locator('td[data-label="Today"]');
    expect(await today.textContent()).toBe('$0.00');

    proxy.cut();
    await page.reload();
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    await row.waitFor();
    expect(await today.textContent()).toBe('unavailable');
    const note = page.getByRole('status').filter({ hasText: 'Usage figures are unavailable' });
    await note.waitFor();
    expect(await page.locator('p.count').textContent()).toBe('1 key');
    await shootThemes(run.browser, 'ledger-down-1-keys');

    // The key's page: the key and its actions; the usage card says why it has no figures.
    await page.getByRole('link', { name: 'ledgerless-key' }).click();
    await page.getByRole('heading', { name: 'ledgerless-key' }).waitFor();
    const usage = page.getByRole('region', { name: 'Usage' });
    await usage.getByText('Usage figures are unavailable').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.locator('.page-head .badge').filter({ hasText: 'disabled' }).waitFor();
    await shootThemes(run.browser, 'ledger-down-2-key');
    // Read again after the action, the usage card keeps its note (no "Loading usage…").
    await page.waitForTimeout(2_500);
    expect(await usage.textContent()).toContain('Usage figures are unavailable');
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.locator('.page-head .badge').filter({ hasText: 'enabled' }).waitFor();

    // The dashboard: the account's standing (from the Account), the ledger's panels say why
    // they are empty.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const notes = page.getByRole('status').filter({ hasText: 'Usage figures are unavailable' });
    // The trend, the models and the top keys (after the page's retries of a 503).
    await expect.poll(() => notes.count(), { timeout: 20_000 }).toBe(3);
    expect(await page.getByRole('alert').count()).toBe(0);
    const totals = page.getByLabel(/^Totals/);
    expect(await totals.getByText('unavailable').count()).toBe(3);
    await page.getByRole('heading', { name: 'Balance' }).waitFor();
    await shootThemes(run.browser, 'ledger-down-3-dashboard');

    // The export answers the error before it sends anything.
    const csv = await page.request.get(`${run.consoleUrl}/api/v1/accounts/demo/usage/records.csv`);
    expect(csv.status()).toBe(503);
    expect(((await csv.json()) as { error: { code: string } }).error.code).toBe(
      'USAGE_UNAVAILABLE',
    );
  });
});
