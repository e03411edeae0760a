/**
 * End to end in Chromium against `tollgate local`: a key with `spec.capture` on makes a real call
 * through the gateway with secrets in its prompt; the recorder writes the redacted capture to the
 * ledger (PGlite). A user with `tollgate-capture-reader` (beside the viewer) opens the record from
 * the records page and sees the request and the response, redacted, with the redaction summary; a
 * viewer sees the record's figures and the refusal, never the bodies. Screenshots in both themes
 * and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLocalUser } from './add-local-user.js';
import { signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';
import { shootWidthsAndThemes } from './shoot-widths-and-themes.js';

const otto = { username: 'otto', password: 'otto-capture-reader-pw-1' };
const vera = { username: 'vera', password: 'vera-viewer-password-12' };
const ANTHROPIC_KEY = `sk-ant-api03-${'Q7x'.repeat(12)}`;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
let run: LocalConsole;
let keyValue = '';
let requestId = '';

beforeAll(async () => {
  run = await startLocalConsole();
  await addLocalUser(run, { ...otto, role: 'tollgate-viewer', namespace: 'demo' });
  await run.local.kubectl([
    ...['create', 'rolebinding', 'otto-captures', '--clusterrole', 'tollgate-capture-reader'],
    ...['--user', otto.username, '-n', 'demo'],
  ]);
  await addLocalUser(run, { ...vera, role: 'tollgate-viewer', namespace: 'demo' });
  keyValue = await run.local.createKey({ name: 'captured-agent', group: 'anthropic' });
  await run.local.kubectl([
    ...['patch', 'apikey', 'captured-agent', '-n', 'demo', '--type', 'merge', '-p'],
    JSON.stringify({
      spec: { capture: { requests: true, responses: true, maxBytes: 4096, retentionDays: 3 } },
    }),
  ]);
}, 180_000);

afterAll(async () => {
  await run.stop();
}, 60_000);

/** One Anthropic Messages call with secrets in the prompt; the gateway's request id. */
async function callWithSecrets(): Promise<string> {
  const answer = await fetch(`${run.local.gatewayUrl}/v1/messages`, {
    method: 'POST',
    headers: {
      'x-api-key': keyValue,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages: [
        {
          role: 'user',
          content: `Deploy with ${ANTHROPIC_KEY} and AWS ${AWS_KEY}, then say hello.`,
        },
      ],
    }),
  });
  expect(answer.status).toBe(200);
  await answer.text();
  return answer.headers.get('x-tollgate-request-id') ?? '';
}

describe('captured calls in Chromium', () => {
  it('shows the capture reader the redacted bodies on the record page', async () => {
    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: otto.username, password: otto.password });
    const captureUrl = (id: string) =>
      `${run.consoleUrl}/api/v1/accounts/demo/keys/captured-agent/records/${id}/capture`;
    // The operator publishes the capture settings within moments, and the recorder writes the
    // capture soon after the call: call until one is captured.
    await expect
      .poll(
        async () => {
          requestId = await callWithSecrets();
          for (let attempt = 0; attempt < 20; attempt++) {
            const answer = await page.request.get(captureUrl(requestId));
            if (answer.status() === 200) return true;
            await new Promise((resume) => setTimeout(resume, 250));
          }
          return false;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(true);
    expect(requestId).not.toBe('');

    await page.goto(`${run.consoleUrl}/accounts/demo/keys/captured-agent/records`);
    await page.getByRole('link', { name: `Record ${requestId}` }).click();
    await page.getByRole('heading', { name: `Record ${requestId}` }).waitFor();
    const request = page.getByRole('region', { name: 'Request' });
    await request.waitFor();
    const requestText = await request.locator('pre').innerText();
    expect(requestText).toContain('[REDACTED:anthropic-key]');
    expect(requestText).toContain('[REDACTED:aws-access-key]');
    expect(requestText).not.toContain(ANTHROPIC_KEY);
    expect(requestText).not.toContain(AWS_KEY);
    // Pretty-printed JSON.
    expect(requestText).toContain('\n  "model": "claude-sonnet-4-6"');
    await request.getByText(/Redacted: .*1 × anthropic-key/).waitFor();
    await request.getByText(/1 × aws-access-key/).waitFor();
    const response = page.getByRole('region', { name: 'Response' });
    expect((await response.locator('pre').innerText()).length).toBeGreaterThan(10);
    await shootWidthsAndThemes(run.browser, 'captures-1-reader');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').waitFor();
  });

  it('shows a viewer the record but refuses the bodies', async () => {
    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: vera.username, password: vera.password });
    await page.goto(`${run.consoleUrl}/accounts/demo/keys/captured-agent/records/${requestId}`);
    await page.getByText('You are not allowed to see captured bodies.', { exact: false }).waitFor();
    // The figures are there; no body is.
    await page.getByText('Stream', { exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Request' }).count()).toBe(0);
    expect(await page.content()).not.toContain('REDACTED');
    const refused = await page.request.get(
      `${run.consoleUrl}/api/v1/accounts/demo/keys/captured-agent/records/${requestId}/capture`,
    );
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    await shootWidthsAndThemes(run.browser, 'captures-2-viewer');
  });
});
