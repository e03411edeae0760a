/**
 * Test support shared by the console's browser tests: `tollgate local` with the built web app and
 * Chromium, sign-in, screenshots in light, dark and a narrow window, and what the focus is on.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startLocalProcess, type LocalProcess } from '../../integration/first-run/local-process.js';
import { buildWebApp, openBrowser, type ConsoleBrowser } from '../../support/console-browser.js';

export interface LocalConsole {
  local: LocalProcess;
  browser: ConsoleBrowser;
  consoleUrl: string;
  adminPassword: string;
  stop(): Promise<void>;
}

/**
 * Builds the web app, starts `tollgate local --port 0` on a fresh data folder (with `extraArgs`),
 * opens Chromium.
 */
export async function startLocalConsole(extraArgs: readonly string[] = []): Promise<LocalConsole> {
  await buildWebApp();
  // The browser first: a machine without Chromium fails before a local stack is left running.
  const browser = await openBrowser();
  const data = mkdtempSync(join(tmpdir(), 'tollgate-console-e2e-'));
  const local = await startLocalProcess(data, extraArgs);
  const match = /^\s+console:\s+(\S+)/m.exec(local.output());
  if (match?.[1] === undefined) {
    await local.stop();
    await browser.close();
    throw new Error(`no console address:\n${local.output()}`);
  }
  return {
    local,
    browser,
    consoleUrl: match[1],
    adminPassword: readFileSync(join(data, 'console-admin-password'), 'utf8').trim(),
    stop: async () => {
      await browser.close();
      await local.stop();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** Light, dark, and a narrow dark window, of the page as it is now. */
export async function shootThemes(browser: ConsoleBrowser, name: string): Promise<void> {
  const { page } = browser;
  await page.emulateMedia({ colorScheme: 'light' });
  await browser.shoot(`${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await browser.shoot(`${name}-dark`);
  await page.setViewportSize({ width: 390, height: 844 });
  await browser.shoot(`${name}-narrow`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

export async function signIn(
  page: Page,
  options: { url: string; username: string; password: string },
): Promise<void> {
  await page.goto(options.url);
  await page.getByLabel('Username').fill(options.username);
  await page.getByLabel('Password').fill(options.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/**
 * The focused element as `tag:label`: its aria-label, its label's text, or its own text
 * (`body` when nothing is focused). Evaluated in the page (a string: the tests have no DOM types).
 */
export function focused(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    // A wrapping label's own text: the control (a select's options) left out.
    const wrapping = (control) => {
      const label = control.closest('label');
      if (label === null) return null;
      const copy = label.cloneNode(true);
      for (const inner of copy.querySelectorAll('input, select, textarea')) inner.remove();
      return copy.textContent;
    };
    const element = document.activeElement;
    if (element === null || element === document.body) return 'body';
    const forLabel = element.id === '' ? null : document.querySelector('label[for="' + CSS.escape(element.id) + '"]');
    const label =
      element.getAttribute('aria-label') ??
      (forLabel === null ? null : forLabel.textContent) ??
      wrapping(element) ??
      element.textContent ??
      '';
    return element.tagName.toLowerCase() + ':' + label.trim().replace(/\\s+/g, ' ');
  })()`);
}

/** The texts an element's aria-describedby points at, joined. */
export async function descriptionOf(
  page: Page,
  locator: ReturnType<Page['getByLabel']>,
): Promise<string> {
  const ids = ((await locator.getAttribute('aria-describedby')) ?? '').split(' ');
  const texts = await Promise.all(
    ids.filter((id) => id !== '').map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}
