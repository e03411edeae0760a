/**
 * End to end in Chromium against `tollgate local`: the admin opens Administration (the current
 * page marked), creates an Upstream with a write-only API key, a Group that sends to it and an
 * Account, edits the Upstream (its key is never shown back) and the Account, meets the server's
 * refusal of a bad value next to its field with the input kept, and deletes the Group after a
 * confirmation whose Cancel gives the focus back. Kubernetes holds what the pages say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  descriptionOf,
  focused,
  shootThemes,
  signIn,
  startLocalConsole,
  type LocalConsole,
} from './browser-steps.js';

let run: LocalConsole;

beforeAll(async () => {
  run = await startLocalConsole();
  await run.local.kubectl(['create', 'namespace', 'e2e-team']);
}, 120_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

async function kubeJson(args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse(await run.local.kubectl([...args, '-o', 'json'])) as Record<string, unknown>;
}

describe('administration in Chromium', () => {
  it('creates, edits, refuses and deletes Groups, Upstreams and Accounts', async () => {
    const { page } = run.browser;
    const shoot = (name: string) => shootThemes(run.browser, name);
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });

    // Administration: offered to the admin, marked as the current page once open.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('heading', { name: 'Groups' }).waitFor();
    expect(page.url()).toBe(`${run.consoleUrl}/admin/groups`);
    expect(
      await nav.getByRole('link', { name: 'Administration' }).getAttribute('aria-current'),
    ).toBe('page');
    const tabs = page.getByRole('navigation', { name: 'Administration' });
    expect(await tabs.getByRole('link', { name: 'Groups' }).getAttribute('aria-current')).toBe(
      'page',
    );
    // The demo world's groups are listed.
    await page.getByRole('rowheader', { name: 'anthropic', exact: true }).waitFor();
    await shoot('admin-1-groups');

    // An Upstream with an API key and a model override.
    await tabs.getByRole('link', { name: 'Upstreams' }).click();
    await page.getByRole('rowheader', { name: 'demo-openai' }).waitFor();
    await shoot('admin-2-upstreams');
    await page.getByRole('link', { name: 'Create upstream' }).click();
    await page.getByRole('heading', { name: 'Create upstream' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('e2e-openai');
    await page.getByLabel('Platform').selectOption('OpenAI');
    await page.getByLabel('Base URL').fill('https://openai.e2e.test/v1');
    expect(await page.getByText('No credential is set yet.').count()).toBe(1);
    await page.getByLabel('API key', { exact: true }).fill('provider-key-e2e-0123456789');
    await page.getByLabel('Concurrent requests').fill('8');
    await page.getByRole('button', { name: 'Add model override' }).click();
    const override = page.getByRole('group', { name: 'Model override 1' });
    await override.getByLabel('Model', { exact: true }).fill('gpt-e2e');
    await override.getByLabel('Upstream model').fill('gpt-5.5');
    await page.getByLabel('Chat Completions').selectOption('Native');
    await shoot('admin-3-upstream-form');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Created upstream e2e-openai.').waitFor();
    const upstreamRow = page.getByRole('row').filter({ hasText: 'e2e-openai' });
    expect(await upstreamRow.textContent()).toContain('API key, set');
    const upstream = await kubeJson(['get', 'upstream', 'e2e-openai']);
    expect(upstream.spec).toEqual({
      platform: 'OpenAI',
      // The CRD's default, written by the API server.
      provider: 'Direct',
      baseURL: 'https://openai.e2e.test/v1',
      credentials: {
        type: 'APIKey',
        apiKey: { secretRef: { name: 'tollgate-upstream-e2e-openai', key: 'apiKey' } },
      },
      maxConcurrentRequests: 8,
      modelOverrides: [{ name: 'gpt-e2e', upstreamModel: 'gpt-5.5' }],
      chatCompletions: 'Native',
    });
    const secret = await kubeJson([
      'get',
      'secret',
      'tollgate-upstream-e2e-openai',
      '-n',
      'tollgate-system',
    ]);
    const data = secret.data as Record<string, string>;
    expect(Buffer.from(data.apiKey ?? '', 'base64').toString('utf8')).toBe(
      'provider-key-e2e-0123456789',
    );

    // Edit it: the key is not shown back; a bad URL is refused next to "Base URL", input kept.
    await page.getByRole('link', { name: 'Edit upstream e2e-openai' }).click();
    await page.getByRole('heading', { name: 'Edit upstream e2e-openai' }).waitFor();
    await page.getByText('A credential is set').waitFor();
    expect(await page.getByLabel('New API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain('provider-key-e2e-0123456789');
    expect(await page.getByLabel('Platform').isDisabled()).toBe(true);
    const baseUrl = page.getByLabel('Base URL');
    await baseUrl.fill('openai.e2e.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(page, baseUrl)).toContain(
      'spec.baseURL must be a URL starting with http:// or https://',
    );
    expect(await baseUrl.inputValue()).toBe('openai.e2e.test');
    expect(await page.getByLabel('Concurrent requests').inputValue()).toBe('8');
    await shoot('admin-4-upstream-refused');
    await baseUrl.fill('https://openai2.e2e.test/v1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved upstream e2e-openai.').waitFor();
    const edited = await kubeJson(['get', 'upstream', 'e2e-openai']);
    expect(edited.spec).toMatchObject({
      baseURL: 'https://openai2.e2e.test/v1',
      credentials: { apiKey: { secretRef: { name: 'tollgate-upstream-e2e-openai' } } },
    });

    // A Group: a multiplier of 0 is refused by the server next to its field, then created.
    await tabs.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('link', { name: 'Create group' }).click();
    await page.getByLabel('Name', { exact: true }).fill('e2e-group');
    await page.getByLabel('Platform').selectOption('OpenAI');
    await page.getByLabel('Description').fill('Made in the browser');
    const multiplier = page.getByLabel('Price multiplier');
    await multiplier.fill('0');
    await page.getByRole('button', { name: 'Add upstream' }).click();
    const ref = page.getByRole('group', { name: 'Upstream 1' });
    await ref.getByLabel('Upstream name').fill('e2e-openai');
    await ref.getByLabel('Weight').fill('3');
    await page.getByLabel('Allowed models').fill('gpt-*\ngpt-e2e');
    await page.getByLabel('Input (USD / M tokens)').fill('1.25');
    await page.getByLabel('Output (USD / M tokens)').fill('10');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => multiplier.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(page, multiplier)).toContain(
      'spec.rateMultiplier must be a number greater than 0',
    );
    expect(await ref.getByLabel('Upstream name').inputValue()).toBe('e2e-openai');
    await shoot('admin-5-group-refused');
    await multiplier.fill('1.5');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Created group e2e-group.').waitFor();
    const group = await kubeJson(['get', 'group', 'e2e-group']);
    expect(group.spec).toEqual({
      platform: 'OpenAI',
      description: 'Made in the browser',
      rateMultiplier: '1.5',
      upstreamRefs: [{ name: 'e2e-openai', weight: 3, priority: 0 }],
      allowedNamespaces: { from: 'All' },
      models: { allow: ['gpt-*', 'gpt-e2e'] },
      pricing: { fallback: { inputPerMTok: '1.25', outputPerMTok: 10 } },
    });
    await page.getByRole('link', { name: 'Edit group e2e-group' }).click();
    await page.getByRole('heading', { name: 'Edit group e2e-group' }).waitFor();
    expect(await page.getByLabel('Allowed models').inputValue()).toBe('gpt-*\ngpt-e2e');
    await shoot('admin-6-group-edit');
    await page.getByRole('link', { name: 'Cancel' }).click();

    // An Account for a namespace, then edited.
    await tabs.getByRole('link', { name: 'Accounts' }).click();
    await page.getByRole('rowheader', { name: 'demo' }).waitFor();
    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByLabel('Namespace').fill('e2e-team');
    await page.getByLabel('Display name').fill('E2E team');
    await page.getByLabel('Credit (USD)').fill('25');
    await page.getByLabel('Concurrent requests').fill('4');
    await shoot('admin-7-account-form');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Created account e2e-team.').waitFor();
    await page.getByRole('link', { name: 'Edit account e2e-team' }).click();
    expect(await page.getByLabel('Credit (USD)').inputValue()).toBe('25');
    await page.getByLabel('Credit (USD)').fill('30.50');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved account e2e-team.').waitFor();
    const accountRow = page.getByRole('row').filter({ hasText: 'E2E team' });
    expect(await accountRow.textContent()).toContain('$30.50');
    await shoot('admin-8-accounts');
    const account = await kubeJson(['get', 'account', 'default', '-n', 'e2e-team']);
    expect(account.spec).toEqual({
      displayName: 'E2E team',
      creditUSD: '30.50',
      maxConcurrentRequests: 4,
    });

    // Delete the Group: asked first; Cancel (and Escape) give the focus back to "Delete".
    await tabs.getByRole('link', { name: 'Groups' }).click();
    const remove = page.getByRole('button', { name: 'Delete group e2e-group' });
    await remove.click();
    const confirm = page.getByRole('group', { name: 'Delete group e2e-group?' });
    await confirm.waitFor();
    expect(await focused(page)).toBe('button:Delete group e2e-group');
    await shoot('admin-9-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await focused(page)).toBe('button:Delete group e2e-group');
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    expect(await focused(page)).toBe('button:Delete group e2e-group');
    expect(await run.local.kubectl(['get', 'group', 'e2e-group', '-o', 'name'])).toContain(
      'e2e-group',
    );
    await remove.click();
    await confirm.getByRole('button', { name: 'Delete group e2e-group' }).click();
    await page.getByText('Deleted group e2e-group.').waitFor();
    expect(await page.getByRole('rowheader', { name: 'e2e-group' }).count()).toBe(0);
    expect(await focused(page)).toBe('h2:Groups');
    await expect
      .poll(async () => run.local.kubectl(['get', 'groups', '-o', 'name']))
      .not.toContain('e2e-group');
  }, 170_000);
});
