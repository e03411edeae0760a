/**
 * End to end in Chromium against `tollgate local`: every page of the console, signed out and as
 * the administrator, comes with a strict Content-Security-Policy (no inline script), framing
 * refused, no type sniffing and no Referer, and the app runs under that policy without a single
 * violation (securitypolicyviolation events and the browser's console messages are collected from
 * the first page to the last, light, dark and 390 px wide). A cross-site page cannot frame it.
 */
import { createServer, type Server } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shootThemes, signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';

let run: LocalConsole;
let framing: Server | undefined;

/** What the page reports: violations seen by its own listener, in the page's order. */
const COLLECT_VIOLATIONS = `
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sourceFile + ':' + event.lineNumber);
  });
`;

beforeAll(async () => {
  run = await startLocalConsole();
  const value = await run.local.createKey({ name: 'csp-key', group: 'anthropic' });
  // One call, so that the dashboard and the key page draw their charts.
  const anthropic = new Anthropic({ apiKey: value, baseURL: run.local.gatewayUrl, maxRetries: 0 });
  await anthropic.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 32,
    messages: [{ role: 'user', content: 'hello from the policy test' }],
  });
}, 180_000);

afterAll(async () => {
  framing?.close();
  await run.stop();
}, 60_000);

const PAGES = [
  '/accounts/demo/keys',
  '/accounts/demo/keys/new',
  '/accounts/demo/keys/csp-key',
  '/accounts/demo/keys/csp-key/edit',
  '/accounts/demo/keys/csp-key/records',
  '/accounts/demo/dashboard',
  '/admin/groups',
  '/admin/groups/new',
  '/admin/groups/anthropic',
  '/admin/upstreams',
  '/admin/upstreams/new',
  '/admin/upstreams/demo-anthropic',
  '/admin/accounts',
  '/admin/accounts/new',
  '/admin/accounts/demo',
];

describe('the security policy in Chromium', () => {
  it('holds on every page, signed out and as the administrator, with no violation', async () => {
    const { page, context } = run.browser;
    const messages: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) messages.push(message.text());
    });
    const documents: { url: string; headers: Record<string, string> }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'document') {
        documents.push({ url: response.url(), headers: response.headers() });
      }
    });
    await context.addInitScript(COLLECT_VIOLATIONS);
    const violations: string[] = [];
    const drain = async (where: string) => {
      const seen = await page.evaluate<string[]>('window.__violations ?? []');
      violations.push(...seen.map((text) => `${where}: ${text}`));
      await page.evaluate('window.__violations = []');
    };

    await page.goto(run.consoleUrl);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    await shootThemes(run.browser, 'policy-0-sign-in');
    await drain('/');
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });
    await drain('/ (signed in)');
    for (const [index, path] of PAGES.entries()) {
      await page.goto(`${run.consoleUrl}${path}`);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('heading').count(), path).toBeGreaterThan(0);
      expect(await page.getByText('Something went wrong').count(), path).toBe(0);
      const name = `policy-${index + 1}-${path.slice(1).replaceAll('/', '-')}`;
      await shootThemes(run.browser, name);
      await page.waitForTimeout(300);
      await drain(path);
    }

    expect(documents.length).toBeGreaterThanOrEqual(PAGES.length + 1);
    for (const { url, headers } of documents) {
      const csp = headers['content-security-policy'] ?? '';
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toContain('unsafe-inline');
      expect(csp, url).not.toContain('unsafe-eval');
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(headers['x-frame-options'], url).toBe('DENY');
      expect(headers['x-content-type-options'], url).toBe('nosniff');
      expect(headers['referrer-policy'], url).toBe('no-referrer');
    }
    const seen = { violations: [...violations], messages: [...messages] };
    // Both collectors report a violation when there is one: markup with an inline style.
    await page.evaluate(
      `document.body.insertAdjacentHTML('beforeend', '<p style="color: red">probe</p>')`,
    );
    await expect.poll(() => page.evaluate<number>('window.__violations.length')).toBe(1);
    await expect.poll(() => messages.length).toBeGreaterThan(seen.messages.length);
    expect(seen.violations).toEqual([]);
    expect(seen.messages).toEqual([]);
  }, 300_000);

  it('cannot be framed by a cross-site page', async () => {
    const { page } = run.browser;
    const consoleUrl = run.consoleUrl;
    framing = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        `<!doctype html><title>other site</title><iframe src="${consoleUrl}/"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => framing?.listen(0, '127.0.0.1', resolve));
    const address = framing.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    // localhost and 127.0.0.1 are different sites for the browser's origin checks.
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|X-Frame-Options/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`http://localhost:${address.port}/`);
    await expect.poll(() => blocked.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    const framedText =
      frame === undefined ? '' : await frame.evaluate<string>('document.body?.innerText ?? ""');
    expect(framedText).not.toContain('Sign');
    await run.browser.shoot('policy-framed-by-another-site');
  }, 60_000);
});
