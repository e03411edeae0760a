/**
 * Test support: the console web app built from the sources, and Debian's Chromium driven by
 * playwright-core on a fresh profile. Screenshots go to test-artifacts/console/.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const ARTIFACTS = join(root, 'test-artifacts', 'console');

const WEB_DIST = join(root, 'console', 'web', 'dist');

/**
 * The production build of console/web into console/web/dist, the folder the console (and a later
 * `tollgate local`) serves: `console/web/build-web.js` in a child process with a clean environment
 * and NODE_ENV=production. Built in this process, under Vitest (NODE_ENV=test), it would be React's
 * development build (about 160 KB gzipped instead of 96, and several times slower to render).
 */
export async function buildWebApp(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [join(root, 'console', 'web', 'build-web.js')],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? tmpdir(),
          NODE_ENV: 'production',
        },
        timeout: 300_000,
      },
      (error, _stdout, stderr) => {
        if (error === null) resolve();
        else reject(new Error(`building the web app failed: ${stderr || error.message}`));
      },
    );
  });
  const development = developmentChunks();
  if (development.length > 0) {
    throw new Error(`console/web/dist holds a development build (${development.join(', ')})`);
  }
}

/**
 * The built JavaScript files that carry React's development build (its JSX calls are `jsxDEV`;
 * the production build has none).
 */
export function developmentChunks(dist = WEB_DIST): string[] {
  const assets = join(dist, 'assets');
  return readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .filter((file) => readFileSync(join(assets, file), 'utf8').includes('jsxDEV'));
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
