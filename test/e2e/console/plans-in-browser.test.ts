/**
 * End to end in Chromium against `tollgate local`: the administrator creates a Plan (a bad cap is
 * refused next to its field before anything is sent), edits it and subscribes the demo Account with
 * member limits; Kubernetes holds what the pages say. Two members' keys spend; the plan's daily cap
 * is then lowered below the spend, so the gateway refuses with 429 TG_SUBSCRIPTION_EXHAUSTED. The
 * administrator sees every member's spend; a key manager sees the plan's windows (used up) on the
 * dashboard, only their own member spend, and why their key's calls are refused on its page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLocalUser } from './add-local-user.js';
import { signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';
import { shootWidthsAndThemes } from './shoot-widths-and-themes.js';

const kim = { username: 'kim', password: 'kim-key-manager-password-1' };
let run: LocalConsole;

beforeAll(async () => {
  run = await startLocalConsole();
  await addLocalUser(run, { ...kim, role: 'tollgate-key-manager', namespace: 'demo' });
}, 180_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

async function kubeJson(args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse(await run.local.kubectl([...args, '-o', 'json'])) as Record<string, unknown>;
}

/** A key of the demo namespace owned by `owner`, once the gateway knows its owner and the plan. */
async function ownedKey(name: string, owner: string): Promise<string> {
  const value = await run.local.createKey({ name, group: 'anthropic' });
  await run.local.kubectl([
    'patch',
    'apikey',
    name,
    '-n',
    'demo',
    '--type',
    'merge',
    '-p',
    JSON.stringify({ spec: { owner } }),
  ]);
  await expect
    .poll(
      async () => {
        const answer = await fetch(`${run.local.gatewayUrl}/v1/usage`, {
          headers: { authorization: `Bearer ${value}` },
        });
        const body = (await answer.json()) as { member?: unknown; subscription?: unknown };
        return body.member !== undefined && body.subscription !== undefined;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  return value;
}

/** One Anthropic Messages call with the key: its status and body text. */
async function call(value: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${run.local.gatewayUrl}/v1/messages`, {
    method: 'POST',
    headers: {
      'x-api-key': value,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'hello from the plans test' }],
    }),
  });
  return { status: answer.status, text: await answer.text() };
}

describe('plans and member budgets in Chromium', () => {
  it('lets the administrator create and edit a plan and subscribe an account', async () => {
    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });
    await page.goto(`${run.consoleUrl}/admin/plans`);
    await page.getByText('No plans yet.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Create plan' }).click();
    await page.getByRole('heading', { name: 'Create plan' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('e2e-pro');
    await page.getByLabel('Display name').fill('E2E Pro');
    // Seven decimals: the CRD allows six; refused before sending, next to the field.
    await page.getByLabel('Daily cap (USD)').fill('0.0000001');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Enter an amount in USD such as 25 or 7.50').waitFor();
    expect(await page.getByLabel('Daily cap (USD)').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Daily cap (USD)').fill('50');
    await page.getByLabel('Monthly cap (USD)').fill('400');
    await page.getByLabel('Models').fill('claude-*\ngpt-5*');
    await page.getByLabel('Price (USD)').fill('20');
    await page.getByLabel('Period (days)').fill('30');
    await shootWidthsAndThemes(run.browser, 'plans-1-form');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Created plan e2e-pro.').waitFor();
    expect((await kubeJson(['get', 'plan', 'e2e-pro'])).spec).toEqual({
      displayName: 'E2E Pro',
      limits: { dailyUSD: '50', monthlyUSD: '400' },
      models: { allow: ['claude-*', 'gpt-5*'] },
      priceUSD: '20',
      periodDays: 30,
    });

    // An edit: the 5-hour cap added, the rest kept.
    await page.getByRole('link', { name: 'Edit plan e2e-pro' }).click();
    await page.getByRole('heading', { name: 'Edit plan e2e-pro' }).waitFor();
    expect(await page.getByLabel('Daily cap (USD)').inputValue()).toBe('50');
    await page.getByLabel('5-hour cap (USD)').fill('30');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved plan e2e-pro.').waitFor();
    const plan = await kubeJson(['get', 'plan', 'e2e-pro']);
    expect((plan.spec as { limits: unknown }).limits).toEqual({
      fiveHourUSD: '30',
      dailyUSD: '50',
      monthlyUSD: '400',
    });

    // The demo Account subscribes from an hour ago, with a member limit per day.
    await page.goto(`${run.consoleUrl}/admin/accounts/demo`);
    await page.getByRole('heading', { name: 'Edit account demo' }).waitFor();
    await page.getByLabel('Plan', { exact: true }).selectOption('e2e-pro');
    const start = new Date(Date.now() - 3_600_000);
    const pad = (value: number) => String(value).padStart(2, '0');
    const local = `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T${pad(start.getHours())}:${pad(start.getMinutes())}`;
    await page.getByLabel('Starts').fill(local);
    await page.getByLabel('Per day (USD)').fill('5');
    await shootWidthsAndThemes(run.browser, 'plans-2-account-form');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved account demo.').waitFor();
    const account = await kubeJson(['get', 'account', 'default', '-n', 'demo']);
    const spec = account.spec as { subscription?: Record<string, string>; memberLimits?: unknown };
    expect(spec.subscription?.planName).toBe('e2e-pro');
    expect(Math.abs(Date.parse(spec.subscription?.startTime ?? '') - start.getTime())).toBeLessThan(
      60_000,
    );
    expect(spec.memberLimits).toEqual({ dailyUSD: '5' });
    expect(await page.getByRole('row').filter({ hasText: 'demo' }).first().textContent()).toContain(
      'e2e-pro',
    );

    // The plan's row names the subscribed account.
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Plans' })
      .click();
    const row = page.getByRole('row').filter({ hasText: 'e2e-pro' });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('demo');
    expect(await row.textContent()).toContain('per 30 days');
    await shootWidthsAndThemes(run.browser, 'plans-3-list');
  }, 150_000);

  it('shows the windows, each member its own spend, and why a call is refused', async () => {
    const { page } = run.browser;
    const kimKey = await ownedKey('kim-key', kim.username);
    const olgaKey = await ownedKey('olga-key', 'olga');
    expect((await call(kimKey)).status).toBe(200);
    expect((await call(olgaKey)).status).toBe(200);
    // The daily cap lowered below what was spent: the spend stays in the window.
    await run.local.kubectl([
      'patch',
      'plan',
      'e2e-pro',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { limits: { dailyUSD: '0.000001' } } }),
    ]);
    let refused = { status: 0, text: '' };
    await expect
      .poll(
        async () => {
          refused = await call(kimKey);
          return refused.status;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(429);
    expect(refused.text).toContain('TG_SUBSCRIPTION_EXHAUSTED');
    // The operator writes the Account's windows on a change of the Account (or every minute).
    await run.local.kubectl([
      'annotate',
      'account',
      'default',
      '-n',
      'demo',
      `e2e.tollgate.dev/poke=${Date.now()}`,
      '--overwrite',
    ]);

    // The administrator sees every member.
    await page.goto(`${run.consoleUrl}/accounts/demo/members`);
    const table = page.getByRole('table', { name: 'Spend per member' });
    await expect
      .poll(async () => (await table.count()) > 0 && (await table.textContent()), {
        timeout: 30_000,
      })
      .toContain('olga');
    expect(await table.textContent()).toContain('kim');
    await shootWidthsAndThemes(run.browser, 'plans-4-members-admin');

    // The key manager: the plan's windows, the daily one used up.
    await run.browser.context.clearCookies();
    await signIn(page, { url: run.consoleUrl, username: kim.username, password: kim.password });
    await page.goto(`${run.consoleUrl}/accounts/demo/dashboard`);
    const planPanel = page.getByRole('region', { name: 'Plan e2e-pro' });
    await expect
      .poll(
        async () => {
          await page.reload();
          await planPanel.waitFor();
          return planPanel.textContent();
        },
        { timeout: 90_000, interval: 3_000 },
      )
      .toContain('Used up');
    expect(await planPanel.textContent()).toContain('Today');
    expect(await planPanel.getByRole('meter', { name: 'Today used' }).count()).toBe(1);
    await shootWidthsAndThemes(run.browser, 'plans-5-dashboard-windows');

    // Their own member spend only.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Members' })
      .click();
    await page.getByRole('heading', { name: 'Your member spend' }).waitFor();
    await table.waitFor();
    expect(await table.textContent()).toContain('kim (you)');
    expect(await table.textContent()).not.toContain('olga');
    await page.getByRole('region', { name: 'Plan e2e-pro' }).waitFor();
    await shootWidthsAndThemes(run.browser, 'plans-6-members-key-manager');

    // The key's page says why its calls are refused, with the code the caller receives.
    await page.goto(`${run.consoleUrl}/accounts/demo/keys/kim-key`);
    const note = page.getByRole('region', { name: 'Calls are refused' });
    await note.waitFor();
    expect(await note.textContent()).toContain('TG_SUBSCRIPTION_EXHAUSTED');
    expect(await note.textContent()).toContain('window is used up');
    expect(await page.getByText('Owner').count()).toBeGreaterThan(0);
    await shootWidthsAndThemes(run.browser, 'plans-7-key-refused');
  }, 300_000);
});
