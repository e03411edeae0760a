/**
 * End to end in Chromium against `tollgate local`, with the keyboard only (Tab, Shift+Tab, Enter,
 * Space, typing; no clicks): sign in, open "Create key", fill the form and create, read the value,
 * go to the key's page, open the delete confirmation, cancel it (the focus returns to "Delete"),
 * then delete. Every stop of the focus is a labelled control, in reading order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { focused, shootThemes, startLocalConsole, type LocalConsole } from './browser-steps.js';

let run: LocalConsole;

beforeAll(async () => {
  run = await startLocalConsole();
}, 120_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

/** Presses Tab until the focus is on `target` (at most `limit` times); returns the stops. */
async function tabTo(page: Page, target: string, limit = 40): Promise<string[]> {
  const stops: string[] = [];
  for (let step = 0; step < limit; step += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    stops.push(now);
    if (now === target) return stops;
  }
  throw new Error(`"${target}" not reached with Tab; the stops were:\n${stops.join('\n')}`);
}

/** Every stop names itself: a tag and a non-empty label. */
function expectLabelled(stops: string[]): void {
  for (const stop of stops) expect(stop, stops.join(' | ')).toMatch(/^[a-z]+:\S/);
}

/** `expected` appear in `stops` in this order (others may come between). */
function expectInOrder(stops: string[], expected: string[]): void {
  let from = 0;
  for (const item of expected) {
    const at = stops.indexOf(item, from);
    expect(at, `${item} after position ${from} in ${stops.join(' | ')}`).toBeGreaterThanOrEqual(
      from,
    );
    from = at + 1;
  }
}

describe('the console with the keyboard only', () => {
  it('signs in, creates a key, and deletes it after a cancelled confirmation', async () => {
    const { page } = run.browser;
    await page.goto(run.consoleUrl);
    await page.getByLabel('Username').waitFor();

    // Sign in: Username, Password, then the button, in that order.
    const signInStops = await tabTo(page, 'input:Username');
    expect(signInStops).toEqual(['input:Username']);
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('input:Password');
    await page.keyboard.type(run.adminPassword);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button:Sign in');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    await page.getByRole('link', { name: 'Create key' }).waitFor();

    // The keys page: the header first, then the page's own controls.
    const keysStops = await tabTo(page, 'a:Create key');
    expectLabelled(keysStops);
    expectInOrder(keysStops, [
      'a:Tollgate',
      'a:Keys',
      'a:Dashboard',
      'a:Administration',
      'button:Theme: system',
      'button:Sign out',
      'a:Create key',
    ]);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Create key' }).waitFor();

    // The create form, in reading order: Account, Name, Advanced, Group, Key value, the limits.
    const formStops = await tabTo(page, 'input:Name');
    expectLabelled(formStops);
    // Focus follows from where "Create key" was; "Account" comes just before "Name".
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('select:Account');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('input:Name');
    await page.keyboard.type('kb-key');
    // The folded "Advanced" (the object name) comes next, then the group.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('summary:Advanced');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('select:Group');
    // A closed select takes typed letters: "anthropic" chooses that group.
    await page.keyboard.type('anthropic');
    expect(await page.getByLabel('Group').inputValue()).toBe('anthropic');
    const valueStops = await tabTo(page, 'input:Key value');
    expectLabelled(valueStops);
    await page.keyboard.type('kb_key_value_0123456789');
    const quotaStops = await tabTo(page, 'input:Quota (USD)');
    expectLabelled(quotaStops);
    await page.keyboard.type('3');
    const restStops = await tabTo(page, 'button:Create');
    expectLabelled(restStops);
    expectInOrder(restStops, [
      'input:5-hour cap (USD)',
      'input:Daily cap (USD)',
      'input:7-day cap (USD)',
      'textarea:Allowed addresses',
      'textarea:Denied addresses',
      'button:Create',
    ]);
    await shootThemes(run.browser, 'keyboard-1-create-form-focus');
    await page.keyboard.press('Enter');

    // The value, shown once; "Back to the keys", then the key's page.
    await page.getByText('you will not see it again').waitFor();
    expect(await page.getByLabel('New key value').textContent()).toBe('kb_key_value_0123456789');
    await tabTo(page, 'a:Back to the keys', 80);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'kb-key' }).waitFor();
    await tabTo(page, 'a:kb-key', 60);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'kb-key' }).waitFor();

    // Delete asks first; the confirmation takes the focus, Cancel gives it back.
    const actionStops = await tabTo(page, 'button:Delete', 60);
    expectLabelled(actionStops);
    expectInOrder(actionStops, [
      'a:Edit',
      'button:Disable',
      'button:Reset quota',
      'button:Rotate',
      'button:Delete',
    ]);
    await page.keyboard.press('Space');
    await page.getByRole('group', { name: 'Delete' }).waitFor();
    expect(await focused(page)).toBe('button:Delete the key');
    await shootThemes(run.browser, 'keyboard-2-delete-confirm-focus');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button:Cancel');
    await page.keyboard.press('Space');
    expect(await focused(page)).toBe('button:Delete');
    // Escape cancels too, and gives the focus back.
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('button:Delete the key');
    await page.keyboard.press('Escape');
    expect(await focused(page)).toBe('button:Delete');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.getByText('No keys yet').waitFor();
    const keys = await run.local.kubectl(['get', 'apikeys', '-n', 'demo', '-o', 'name']);
    expect(keys).not.toContain('kb-key');
  }, 170_000);
});
