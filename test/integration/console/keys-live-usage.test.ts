/**
 * One clock per row: `tollgate local` in one process (the examples applied against `tollgate
 * simulate`), the operator's status refresh set to an hour so the ApiKey status keeps the figures
 * of before the calls. After calls through the gateway (plain, streamed, and a free
 * `count_tokens`), the console's keys list and key page show the used quota, the three windows,
 * the last use and today's cost agreeing, read live (`countersSource: store`), while kubectl still
 * shows the stale status. The same calls on the records side: the token count is marked as one and
 * left out of the request totals, and the CSV is named after its filter.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually, startExampleStack, type ExampleStack } from '../local-stack/example-stack.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let world: ExampleStack;
let cookie: string;
let callsStarted: number;
let callsEnded: number;

interface KeyUsage {
  usedUSD: string | null;
  windows: { name: string; usedUSD: string; resetTime: string | null }[];
  lastUsedTime: string | null;
  todayCostUSD: string | null;
  ledgerUnavailable: boolean;
  countersSource: string;
}

interface KeyItem {
  name: string;
  usage: KeyUsage;
}

async function consoleGet(path: string): Promise<Response> {
  return fetch(`${world.stack.consoleUrl}/api/v1/${path}`, { headers: { cookie } });
}

async function aliceItem(): Promise<KeyItem | undefined> {
  const answer = await consoleGet('accounts/team-a/keys');
  const items = ((await answer.json()) as { items: KeyItem[] }).items;
  return items.find((item) => item.name === 'alice');
}

async function ledgerRecords(): Promise<number> {
  const answer = await consoleGet('accounts/team-a/usage/records?key=alice');
  return ((await answer.json()) as { records: unknown[] }).records.length;
}

const statusUsed = () =>
  world.kubectl('get apikey alice -n team-a -o jsonpath={.status.usage.usedUSD}'.split(' '));

beforeAll(async () => {
  // The status is written once when the key is programmed, then not for an hour.
  world = await startExampleStack({ usageRefreshMs: 3_600_000 });
  const { stack } = world;
  const aliceKey = await world.readSecret({
    namespace: 'team-a',
    name: 'alice-key',
    key: 'apiKey',
  });
  const signedIn = await fetch(`${stack.consoleUrl}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.consoleUrl },
    body: JSON.stringify({ username: 'admin', password: stack.consoleAdminPassword }),
  });
  expect(signedIn.status).toBe(200);
  cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  // The key is usable and its status carries the figures of before any call.
  const client = new Anthropic({ apiKey: aliceKey, baseURL: stack.gatewayUrl, maxRetries: 0 });
  await eventually(
    () =>
      client.models.retrieve('claude-sonnet-4-6').then(
        () => true,
        () => false,
      ),
    (ok) => ok,
  );
  await eventually(statusUsed, (used) => used === '0');
  callsStarted = Date.now();
  await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'hello' }],
  });
  await client.messages
    .stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'stream please' }],
    })
    .finalMessage();
  await client.messages.countTokens({
    model: 'claude-sonnet-4-6',
    messages: [{ role: 'user', content: 'how many tokens is this?' }],
  });
  callsEnded = Date.now();
});

afterAll(async () => {
  await world.close();
});

describe('the keys list right after calls, before the operator writes the status', () => {
  it('shows used quota, windows, last use and today agreeing, read live', async () => {
    // Today's cost is the ledger's: the recorder moves the records there a fraction of a second
    // after the store has them. Once it holds all three, the list is read once.
    await eventually(ledgerRecords, (count) => count === 3);
    const usage = (await aliceItem())?.usage;
    expect(Number(usage?.usedUSD)).toBeGreaterThan(0);
    expect(usage?.todayCostUSD).toBe(usage?.usedUSD);
    expect(usage?.countersSource).toBe('store');
    expect(usage?.windows.map((window) => [window.name, window.usedUSD])).toEqual([
      ['FiveHour', usage?.usedUSD],
      ['Daily', usage?.usedUSD],
      ['SevenDay', usage?.usedUSD],
    ]);
    for (const window of usage?.windows ?? []) {
      expect(Date.parse(window.resetTime ?? '')).toBeGreaterThan(callsEnded);
    }
    const lastUsed = Date.parse(usage?.lastUsedTime ?? '');
    expect(lastUsed).toBeGreaterThanOrEqual(Math.floor(callsStarted / 1000) * 1000);
    expect(lastUsed).toBeLessThanOrEqual(callsEnded);
    // kubectl still shows the status of before the calls: the list did not wait for it.
    expect(await statusUsed()).toBe('0');

    const page = await consoleGet('accounts/team-a/keys/alice');
    expect(((await page.json()) as KeyItem).usage).toEqual(usage);
  });

  it('counts the token count as a token count, not as a request', async () => {
    const summary = await consoleGet('accounts/team-a/keys/alice/usage?days=1');
    const sums = (await summary.json()) as { today: { requests: number; costNano: number } };
    expect(sums.today.requests).toBe(2);
    const records = await consoleGet('accounts/team-a/usage/records?key=alice');
    const rows = ((await records.json()) as { records: { kind: string; path?: string }[] }).records;
    expect(rows.map((row) => row.kind).sort()).toEqual(['request', 'request', 'token_count']);
  });

  it('names the CSV after its filter', async () => {
    const from = '2026-01-01T00:00:00.000Z';
    const to = new Date(Date.UTC(2100, 0, 1, 12, 30)).toISOString();
    const csv = await consoleGet(
      `accounts/team-a/usage/records.csv?key=alice&model=claude-sonnet-4-6&from=${from}&to=${to}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="tollgate-records-team-a-alice-20260101T0000Z-21000101T1230Z-claude-sonnet-4-6.csv"',
    );
    const lines = (await csv.text()).split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(4);
  });
});
