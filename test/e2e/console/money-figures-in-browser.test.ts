/**
 * End to end in Chromium against `tollgate local`: calls of different sizes through the gateway
 * (the official Anthropic SDK), then the key's records as the page shows them add up, to the
 * precision shown, to the key's total as its page shows it (no cents rounding below $1); the
 * dashboard's rounded amounts give the exact amount on hover (title) and on keyboard focus; the
 * charts' money axes step by 1, 2 or 5 × 10^n with the same decimals on every tick. Screenshots
 * at 1280 and 390 pixels in both themes.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';
import { shootWidthsAndThemes } from './shoot-widths-and-themes.js';

let run: LocalConsole;
const KEY = 'figures';
const CALLS = 5;
const MONEY = /-?\$[\d,]+(?:\.\d+)?/;

beforeAll(async () => {
  run = await startLocalConsole();
}, 180_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

/** `$1,234.5678` → digits as a whole number of the last place, and how many places. */
function parseShown(text: string): { units: bigint; decimals: number } {
  const found = MONEY.exec(text)?.[0];
  if (found === undefined) throw new Error(`no amount in "${text}"`);
  const [whole = '0', fraction = ''] = found.replace(/[$,]/g, '').split('.');
  return { units: BigInt(`${whole}${fraction}`), decimals: fraction.length };
}

/**
 * How far the shown records' sum is from the shown total, and how far rounding may take it (half a
 * unit in the last place of each record and of the total), in units of the 10^-`places` dollar.
 */
function roundingGap(records: readonly string[], total: string) {
  const parsed = [...records, total].map(parseShown);
  const places = 1 + Math.max(...parsed.map((item) => item.decimals));
  const scaled = parsed.map((item) => item.units * 10n ** BigInt(places - item.decimals));
  const halfUnits = parsed.map((item) => 5n * 10n ** BigInt(places - item.decimals - 1));
  const sum = scaled.slice(0, -1).reduce((left, right) => left + right, 0n);
  const shownTotal = scaled.at(-1) ?? 0n;
  return {
    gap: sum > shownTotal ? sum - shownTotal : shownTotal - sum,
    allowed: halfUnits.reduce((left, right) => left + right, 0n),
    shownTotal,
  };
}

/** The value axis labels of the chart labelled `label`. */
async function axisTicks(page: Page, label: string): Promise<string[]> {
  // Recharts draws the labels in a layer of their own, not inside the axis's group.
  const labels = page
    .getByRole('figure', { name: label })
    .locator('.recharts-yAxis-tick-labels text');
  await labels.first().waitFor();
  return labels.allTextContents();
}

function expectNiceMoneyTicks(ticks: readonly string[]): void {
  expect(ticks.length).toBeGreaterThan(1);
  const decimals = new Set(ticks.map((tick) => parseShown(tick).decimals));
  expect(decimals.size, ticks.join(' ')).toBe(1);
  const values = ticks.map((tick) => Number(tick.replace(/[$,]/g, '')));
  expect(values[0]).toBe(0);
  const step = (values[1] ?? 0) - (values[0] ?? 0);
  const mantissa = Number((step / 10 ** Math.floor(Math.log10(step) + 1e-9)).toFixed(6));
  expect([1, 2, 5], ticks.join(' ')).toContain(mantissa);
  values.forEach((value, index) => {
    expect(value).toBeCloseTo(index * step, 9);
  });
}

describe('money figures in Chromium', () => {
  it('add up on the page, with the exact amounts on hover and focus', async () => {
    const { page } = run.browser;
    const value = await run.local.createKey({ name: KEY, group: 'anthropic' });
    const anthropic = new Anthropic({
      apiKey: value,
      baseURL: run.local.gatewayUrl,
      maxRetries: 0,
    });
    // Prompts of different lengths, some thousand tokens: records of different costs, each with
    // more than four significant digits (cents would show $0.01 for every one).
    for (let index = 0; index < CALLS; index++) {
      await anthropic.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 64,
        messages: [
          { role: 'user', content: `figures ${'and more words '.repeat(701 + index * 137)}` },
        ],
      });
    }
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });

    // The records as shown.
    await page.goto(`${run.consoleUrl}/accounts/demo/keys/${KEY}/records`);
    const costCells = page.locator('table.records tbody td[data-label="Cost"]');
    await expect
      .poll(
        async () => {
          if ((await costCells.count()) < CALLS) await page.reload();
          return costCells.count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(CALLS);
    const records = (await costCells.allTextContents()).map(
      (text) => MONEY.exec(text)?.[0] ?? text,
    );
    await shootWidthsAndThemes(run.browser, 'money-records');

    // The key's total as shown.
    await page.goto(`${run.consoleUrl}/accounts/demo/keys/${KEY}`);
    const lastDays = page.locator('dl.figures div', { hasText: 'Last 30 days' }).locator('dd');
    await expect
      .poll(async () => lastDays.textContent(), { timeout: 15_000 })
      .toContain(`${CALLS} requests`);
    const total = MONEY.exec((await lastDays.textContent()) ?? '')?.[0] ?? '';
    // The records shown add up to the total shown, to the precision shown: apart by no more than
    // their rounding, which is under 0.1% of the total (cents would allow a third of it).
    const { gap, allowed, shownTotal } = roundingGap(records, total);
    const sum = `${records.join(' + ')} vs ${total}`;
    expect(gap, sum).toBeLessThanOrEqual(allowed);
    expect(allowed * 1000n, sum).toBeLessThanOrEqual(shownTotal);
    await shootWidthsAndThemes(run.browser, 'money-key-page');
    expectNiceMoneyTicks(await axisTicks(page, 'Daily cost, last 30 days'));

    // The dashboard: the key's cost among the top keys, exact on hover and on focus.
    await page.goto(`${run.consoleUrl}/accounts/demo/dashboard`);
    const top = page.getByRole('table', { name: 'Top keys by cost' });
    const row = top.getByRole('row').filter({ hasText: KEY });
    await row.waitFor();
    const shown = (await row.locator('td.num').last().textContent()) ?? '';
    expect(MONEY.exec(shown)?.[0]).toBe(total);
    // A rounded figure: its exact amount (every digit the ledger has) on hover and on focus.
    const amount = row.locator('data.usd');
    const exact = (await amount.getAttribute('value')) ?? '';
    expect(exact.length).toBeGreaterThan(total.replace(/[$,]/g, '').length);
    expect(await amount.getAttribute('title')).toBe(`Exactly $${exact}`);
    // The text on screen: of the elements laid out wider than the 1 px of visually hidden text.
    const visible = () =>
      amount.evaluate((element: unknown) => {
        type Box = { getBoundingClientRect(): { width: number } };
        type Node = Box & {
          nodeType: number;
          textContent: string;
          parentElement: Box;
          childNodes: Node[];
        };
        const texts: string[] = [];
        const walk = (node: Node) => {
          if (node.nodeType === 3 && node.parentElement.getBoundingClientRect().width > 1) {
            texts.push(node.textContent);
          }
          for (const child of node.childNodes) walk(child);
        };
        walk(element as Node);
        return texts.join('').trim();
      });
    expect(await visible()).toBe(total);
    await amount.focus();
    expect(await visible()).toBe(`$${exact}`);
    await page.keyboard.press('Tab');
    expect(await visible()).toBe(total);
    const totals = page.getByLabel('Totals, last 24 hours');
    await expect.poll(async () => totals.textContent(), { timeout: 15_000 }).toContain(total);
    expectNiceMoneyTicks(await axisTicks(page, 'Cost per hour, last 24 hours'));
    await shootWidthsAndThemes(run.browser, 'money-dashboard');
  });
});
