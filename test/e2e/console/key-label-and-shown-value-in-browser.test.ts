/**
 * End to end in Chromium against `tollgate local`: a key named with spaces and non-Latin letters
 * ("Équipe données 数据 team") is created (its object name derived and shown as it is typed), its
 * value works at the gateway, and the label comes back on the keys list (and its search), the
 * key's page and the edit page, where it is changed. The value shown once opens in view with the
 * focus in it, after Create from a form scrolled down and after Rotate from a page scrolled down,
 * at 1280 and 390 pixels. The key page shows its windows, expiry and address lists, and "Use this
 * key" with the placeholder, whose code scrolls sideways in a 390 px window without widening the
 * page. Screenshots in light, dark and narrow go to test-artifacts/console/.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shootThemes, signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';
import { callUntilAccepted } from './call-gateway.js';

const LABEL = 'Équipe données 数据 team';
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

let run: LocalConsole;

beforeAll(async () => {
  run = await startLocalConsole();
  await signIn(run.browser.page, {
    url: run.consoleUrl,
    username: 'admin',
    password: run.adminPassword,
  });
}, 180_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

/** True when the element's box lies wholly inside the window. */
async function insideViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  if (box === null || size === null) return false;
  return (
    box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height && box.x + box.width <= size.width
  );
}

/** The value, its warning and its Copy button in view, the focus inside the created section. */
async function expectCreatedInView(page: Page): Promise<string> {
  await page.getByText('you will not see it again').waitFor();
  const value = page.getByLabel('New key value');
  for (const part of [value, page.getByText('you will not see it again'), copyButton(page)]) {
    expect(await insideViewport(page, part)).toBe(true);
  }
  expect(await page.evaluate<boolean>(`document.activeElement.closest('.created') !== null`)).toBe(
    true,
  );
  return (await value.textContent()) ?? '';
}

function copyButton(page: Page): Locator {
  return page.locator('.created .value-row').getByRole('button', { name: 'Copy' });
}

async function scrollToBottom(page: Page): Promise<number> {
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  return page.evaluate<number>('window.scrollY');
}

/** Fills the create form with `label` and limits, scrolls it down, creates; the value shown. */
async function createKey(page: Page, label: string): Promise<{ value: string; name: string }> {
  await page.goto(`${run.consoleUrl}/accounts/demo/keys/new`);
  await page.getByLabel('Name', { exact: true }).fill(label);
  await page.getByLabel('Group').selectOption('anthropic');
  await page.getByLabel('5-hour cap (USD)').fill('1.5');
  await page.getByLabel('Daily cap (USD)').fill('2');
  await page.getByLabel('Allowed addresses').fill('127.0.0.0/8\n::1');
  await page.getByLabel('Valid for a period').check();
  const hint = (await page.getByText(/Object name: /).textContent()) ?? '';
  const name = /Object name: ([a-z0-9-]+)$/.exec(hint)?.[1] ?? '';
  expect(await scrollToBottom(page)).toBeGreaterThan(0);
  // Clicked where it is, without scrolling it into view first.
  await page.getByRole('button', { name: 'Create', exact: true }).dispatchEvent('click');
  return { value: await expectCreatedInView(page), name };
}

describe('a key with a free-text name; the value shown once in view', () => {
  it('creates "Équipe données 数据 team", calls the gateway with it, finds the label back', async () => {
    const { page } = run.browser;
    await page.setViewportSize(WIDTHS[0]);
    await page.goto(`${run.consoleUrl}/accounts/demo/keys/new`);
    await page.getByLabel('Name', { exact: true }).fill(LABEL);
    await page.getByText(/Object name: equipe-donnees-team-[a-z0-9]{5}$/).waitFor();
    await page.getByText('Advanced').click();
    expect(await page.getByLabel('Object name').getAttribute('placeholder')).toMatch(
      /^equipe-donnees-team-[a-z0-9]{5}$/,
    );
    await shootThemes(run.browser, 'label-1-create-form');

    const { value, name } = await createKey(page, LABEL);
    expect(name).toMatch(/^equipe-donnees-team-[a-z0-9]{5}$/);
    expect(await page.getByRole('heading', { name: `Key ${LABEL} created` }).count()).toBe(1);
    await shootThemes(run.browser, 'label-2-created');
    expect(await callUntilAccepted(run.local.gatewayUrl, value)).not.toBe('');

    // The keys list: the label, the object name in small print; the search finds either.
    await page.goto(`${run.consoleUrl}/accounts/demo/keys`);
    const row = page.getByRole('row').filter({ hasText: LABEL });
    await row.waitFor();
    expect(await row.locator('.object-name').textContent()).toBe(name);
    await page.getByLabel('Search keys').fill('数据');
    await row.waitFor();
    await page.getByLabel('Search keys').fill(name);
    await row.waitFor();
    await page.getByLabel('Search keys').fill('');
    await shootThemes(run.browser, 'label-3-keys');

    // The key's page: the label as its heading, its limits, "Use this key" with the placeholder.
    await row.getByRole('link', { name: LABEL }).click();
    await page.getByRole('heading', { name: LABEL, exact: true }).waitFor();
    expect(page.url()).toBe(`${run.consoleUrl}/accounts/demo/keys/${name}`);
    expect(await page.getByLabel('Object name').textContent()).toBe(name);
    // A figure's text without the exact amounts read out for rounded ones (" exactly $0.000412345").
    const figure = async (term: string) =>
      (
        (await page
          .locator('dt', { hasText: term })
          .locator('xpath=following-sibling::dd[1]')
          .textContent()) ?? ''
      ).replace(/ exactly \$[\d.,]+/g, '');
    expect(await figure('5-hour window')).toMatch(/^\$[\d.]+ of \$1\.50/);
    expect(await figure('Daily window')).toMatch(/^\$[\d.]+ of \$2\.00/);
    expect(await figure('7-day window')).toMatch(
      /^(\$[\d.]+ used, no cap · resets in 7 d|no cap)$/,
    );
    expect(await figure('Expires')).toMatch(/\(in 30 d\)$/);
    expect(await figure('Allowed addresses')).toBe('127.0.0.0/8::1');
    expect(await figure('Denied addresses')).toBe('none');
    const useKey = page.getByRole('region', { name: 'Use this key' });
    expect(await useKey.textContent()).toContain('<your-tollgate-key>');
    expect(await useKey.textContent()).not.toContain(value);
    const link = await useKey
      .getByRole('link', { name: 'Import into CC Switch' })
      .getAttribute('href');
    const params = new URL(link ?? '').searchParams;
    expect(params.get('name')).toBe(LABEL);
    expect(params.get('apiKey')).toBe('<your-tollgate-key>');
    expect(new URL(params.get('homepage') ?? '').port).toBe(new URL(run.consoleUrl).port);
    await shootThemes(run.browser, 'label-4-key-page');

    // The records page: the label as its heading and its way back, the call made above listed.
    await page.getByRole('link', { name: 'Usage records' }).click();
    await page.getByRole('heading', { name: `Usage records of ${LABEL}` }).waitFor();
    await expect
      .poll(
        async () => {
          const rows = await page.locator('table.records tbody tr').count();
          if (rows === 0) await page.reload();
          return rows;
        },
        { timeout: 15_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    await page.getByRole('link', { name: `← ${LABEL}` }).click();
    await page.getByRole('heading', { name: LABEL, exact: true }).waitFor();

    // The edit page shows the label and changes it.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: `Edit key ${LABEL}` }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(LABEL);
    await page.getByLabel('Name', { exact: true }).fill(`${LABEL} 2`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: `${LABEL} 2`, exact: true }).waitFor();
    expect(page.url()).toBe(`${run.consoleUrl}/accounts/demo/keys/${name}`);
  }, 240_000);

  it.each(WIDTHS)(
    'at $width px: the value in view after Create and after Rotate',
    async (size) => {
      const { page } = run.browser;
      await page.setViewportSize(size);
      const { name } = await createKey(page, `Mobile 移动 ${size.width}`);
      await page.goto(`${run.consoleUrl}/accounts/demo/keys/${name}`);
      await page.getByRole('region', { name: 'Use this key' }).waitFor();
      await page.getByRole('button', { name: 'Rotate' }).click();
      const confirm = page.getByRole('button', { name: 'Rotate the value' });
      await confirm.waitFor();
      expect(await scrollToBottom(page)).toBeGreaterThan(0);
      await confirm.dispatchEvent('click');
      expect(await expectCreatedInView(page)).toMatch(/^sk-tg-/);
      expect(await page.getByText(`Key Mobile 移动 ${size.width} rotated`).count()).toBe(1);
      await page.setViewportSize(WIDTHS[0]);
    },
    120_000,
  );

  it('at 390 px "Use this key" scrolls its code sideways, not the page', async () => {
    const { page } = run.browser;
    await page.setViewportSize(WIDTHS[1]);
    await page.goto(`${run.consoleUrl}/accounts/demo/keys`);
    await page.getByRole('row').filter({ hasText: LABEL }).getByRole('link').first().click();
    const useKey = page.getByRole('region', { name: 'Use this key' });
    await useKey.waitFor();
    for (const tool of ['Claude Code', 'OpenCode']) {
      await useKey.getByRole('button', { name: tool }).click();
      const widths = await page.evaluate<{ scroll: number; client: number }>(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      );
      expect(widths.scroll, tool).toBeLessThanOrEqual(widths.client);
      const blocks = await page.evaluate<{ whiteSpace: string; overflows: boolean }[]>(
        `[...document.querySelectorAll('.use-key pre')].map((element) => ({
          whiteSpace: getComputedStyle(element).whiteSpace,
          overflows: element.scrollWidth > element.clientWidth,
        }))`,
      );
      expect(blocks.every((block) => block.whiteSpace === 'pre')).toBe(true);
      // At least the settings file's long lines are wider than the window: they scroll.
      expect(blocks.some((block) => block.overflows)).toBe(true);
    }
    // Claude Code: the file or the environment (either), the shells one of two.
    await useKey.getByRole('button', { name: 'Claude Code' }).click();
    expect(await useKey.textContent()).toContain('Either write this file');
    await useKey.getByRole('button', { name: 'OpenCode' }).click();
    expect(await useKey.textContent()).toContain('both are needed');
    await useKey.getByRole('button', { name: 'Claude Code' }).click();
    await useKey.scrollIntoViewIfNeeded();
    await shootThemes(run.browser, 'label-5-use-key-narrow');
    await page.setViewportSize(WIDTHS[0]);
  }, 60_000);
});
