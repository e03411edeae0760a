/**
 * Test support: the console web app built from the sources, and Debian's Chromium driven by
 * playwright-core on a fresh profile. Screenshots go to test-artifacts/console/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const root = fileURLToPath(new URL('../../..', import.meta.url));
export const ARTIFACTS = join(root, 'test-artifacts', 'console');

/** `vite build` of console/web into console/web/dist, the folder the console serves. */
export async function buildWebApp(): Promise<void> {
  const { build } = await import('vite');
  await build({
    root: join(root, 'console', 'web'),
    configFile: join(root, 'console', 'web', 'vite.config.ts'),
    logLevel: 'silent',
  });
}

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** A full-page screenshot named `<name>.png` in the artifacts folder. */
  shoot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<ConsoleBrowser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'tollgate-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    viewport: { width: 1280, height: 800 },
    timeout: 30_000,
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    shoot: async (name) => {
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
