/**
 * End to end in Chromium against `tollgate local`: a key manager creates a Notifier with its signing
 * secret on the account's Notifications page (Kubernetes then holds the Notifier, pointing at a new
 * Secret holding the value); a key of the namespace expires within the notifier's days, so the
 * operator sends the event to a receiver (a real HTTP server here) that checks the signature; the
 * page then lists the delivery in the notifier's history. An edit keeps the Secret; a delete removes
 * the Notifier. The administrator sees the Cluster notifiers page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../../operator/notify/sign-webhook-body.js';
import { addLocalUser } from './add-local-user.js';
import { signIn, startLocalConsole, type LocalConsole } from './browser-steps.js';
import { shootWidthsAndThemes } from './shoot-widths-and-themes.js';

const kim = { username: 'kim', password: 'kim-key-manager-password-1' };
const SIGNING_SECRET = 'e2e-signing-secret-0123456789';
let run: LocalConsole;
let receiver: Server;
let receiverUrl: string;
const received: { type: string; subject: string; id: string; valid: boolean }[] = [];

beforeAll(async () => {
  run = await startLocalConsole();
  await addLocalUser(run, { ...kim, role: 'tollgate-key-manager', namespace: 'demo' });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const event = JSON.parse(body) as { id: string; type: string; subject: { name: string } };
      received.push({
        type: event.type,
        subject: event.subject.name,
        id: String(req.headers['tollgate-event-id']),
        valid: verifyWebhookSignature({
          secret: SIGNING_SECRET,
          timestamp: Number(req.headers['tollgate-timestamp']),
          body,
          signature: String(req.headers['tollgate-signature']),
        }),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/hooks`;
}, 180_000);

afterAll(async () => {
  receiver.close();
  await run.stop();
}, 60_000);

async function kubeJson(args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse(await run.local.kubectl([...args, '-o', 'json'])) as Record<string, unknown>;
}

describe('notifiers in Chromium', () => {
  it('lets a key manager create a notifier, see its delivery history, edit and delete it', async () => {
    // A key of the namespace that expires in three days.
    await run.local.createKey({ name: 'expiring', group: 'anthropic' });
    const expires = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await run.local.kubectl([
      'patch',
      'apikey',
      'expiring',
      '-n',
      'demo',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { expirationTime: expires } }),
    ]);

    const { page } = run.browser;
    await signIn(page, { url: run.consoleUrl, username: kim.username, password: kim.password });
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.getByText('No notifier yet.').waitFor();
    await page.getByRole('button', { name: 'New notifier' }).click();
    await page.getByRole('heading', { name: 'New notifier' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('team-alerts');
    await page.getByLabel('Webhook URL').fill(receiverUrl);
    await page.getByLabel('Signing secret').fill(SIGNING_SECRET);
    // A bad threshold is refused next to its field before anything is sent.
    await page.getByLabel('Window thresholds (%)').fill('80, lots');
    await page.getByRole('button', { name: 'Create notifier' }).click();
    await page.getByText('Whole percentages from 1 to 1000').waitFor();
    await page.getByLabel('Window thresholds (%)').fill('80, 100');
    await page.getByLabel('Key expiring within (days)').fill('7');
    await shootWidthsAndThemes(run.browser, 'notifiers-1-form');
    await page.getByRole('button', { name: 'Create notifier' }).click();
    await page.getByText('Saved team-alerts.').waitFor();

    const notifier = await kubeJson(['get', 'notifier', 'team-alerts', '-n', 'demo']);
    const spec = notifier.spec as {
      webhook: { url: string; signingSecretRef: { name: string; key: string } };
      events: Record<string, unknown>;
    };
    expect(spec.webhook.url).toBe(receiverUrl);
    expect(spec.events).toEqual({
      keyWindows: { thresholds: [80, 100] },
      keyExpiring: { withinDays: 7 },
    });
    const secret = await kubeJson([
      'get',
      'secret',
      spec.webhook.signingSecretRef.name,
      '-n',
      'demo',
    ]);
    // Labelled for notifiers: the operator reads no unmarked Secret for a Notifier.
    expect((secret.metadata as { labels?: Record<string, string> }).labels).toMatchObject({
      'tollgate.dev/notifier-secret': 'true',
    });
    const data = secret.data as Record<string, string>;
    expect(Buffer.from(data[spec.webhook.signingSecretRef.key] ?? '', 'base64').toString()).toBe(
      SIGNING_SECRET,
    );
    expect(await page.content()).not.toContain(SIGNING_SECRET);

    // The operator (every 10 s in local mode) sends the expiry, signed.
    await expect
      .poll(
        () =>
          received.some((event) => event.type === 'KeyExpiring' && event.subject === 'expiring'),
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    expect(received.every((event) => event.valid)).toBe(true);
    const expiry = received.find((event) => event.subject === 'expiring');

    // The history on the page, from the status.
    await expect
      .poll(
        async () => {
          await page.reload();
          const history = page.getByRole('table', { name: 'Deliveries of team-alerts' });
          await history.waitFor({ timeout: 5_000 }).catch(() => undefined);
          return (await history.count()) === 1 ? await history.innerText() : '';
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toContain('demo/ApiKey/expiring');
    const history = page.getByRole('table', { name: 'Deliveries of team-alerts' });
    const row = history.getByRole('row').filter({ hasText: 'demo/ApiKey/expiring' });
    await expect.poll(() => row.innerText(), { timeout: 30_000 }).toContain('Delivered');
    // The id is shortened in the table, whole in its title.
    const id = row.locator('code');
    expect(await id.getAttribute('title')).toBe(expiry?.id ?? 'no id');
    expect(await id.innerText()).toBe(`${(expiry?.id ?? '').slice(0, 12)}…`);
    await page.getByText('Ready', { exact: true }).waitFor();
    await shootWidthsAndThemes(run.browser, 'notifiers-2-history');

    // An edit without a new secret keeps the Secret.
    await page.getByRole('button', { name: 'Edit team-alerts' }).click();
    await page.getByRole('heading', { name: 'Edit notifier team-alerts' }).waitFor();
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe(receiverUrl);
    await page.getByLabel('Window thresholds (%)').fill('50, 90');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved team-alerts.').waitFor();
    const edited = (await kubeJson(['get', 'notifier', 'team-alerts', '-n', 'demo']))
      .spec as typeof spec;
    expect(edited.events.keyWindows).toEqual({ thresholds: [50, 90] });
    expect(edited.webhook.signingSecretRef).toEqual(spec.webhook.signingSecretRef);

    await page.getByRole('button', { name: 'Delete team-alerts' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('No notifier yet.').waitFor();
    const gone = await run.local.kubectl(['get', 'notifiers', '-n', 'demo']).catch(String);
    expect(gone).not.toContain('team-alerts');
  }, 240_000);

  it('shows the administrator the cluster notifiers', async () => {
    const { page } = run.browser;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, { url: run.consoleUrl, username: 'admin', password: run.adminPassword });
    await page.goto(`${run.consoleUrl}/admin/clusternotifiers`);
    await page.getByRole('heading', { name: 'Cluster notifiers' }).waitFor();
    await page.getByText('No notifier yet.').waitFor();
    await page.getByRole('button', { name: 'New notifier' }).click();
    await page.getByLabel('Send to').selectOption('slack');
    await page.getByText('Upstream circuit open').waitFor();
    await shootWidthsAndThemes(run.browser, 'notifiers-3-cluster');
  }, 120_000);
});
