/**
 * 100-way bursts through the official Anthropic SDK against a $0.05 quota, with the whole path as
 * a cluster runs it: the gateway on a private Redis prefix, the recorder draining the usage
 * streams into a PostgreSQL ledger (a database of its own on the machine's server). One burst
 * non-streamed, one streamed, each on its own key, the fake upstream answering with every output
 * token allowed (each call costs the most it can). For each key: the settled spend is over the
 * quota by less than one call (docs/billing.md section 4: the bound, here with no input error as
 * the body is passed through), nothing stays reserved, and the ledger equals the counters: one
 * row per admitted call (its request id, once), its cost the key's used quota; the account's
 * lifetime total in the ledger equals the account's spend.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readNumber } from '../../../ledger/ledger-database.js';
import { computeFakeAnswer } from '../../../local/simulator/compute-fake-answer.js';
import { createKey, writeAccount } from '../../support/gateway-fixture.js';
import { startLedgerStack, waitUntil, type LedgerStack } from './ledger-harness.js';

const QUOTA_NANO = 50_000_000;
const CALLS = 100;
const MAX_TOKENS = 500;
// Nano-USD per token: $1 per MTok input, $10 per MTok output (a call holds about $0.005).
const price = {
  input: 1_000,
  output: 10_000,
  cacheRead: 100,
  cacheWrite5m: 1_250,
  cacheWrite1h: 2_000,
};

let stack: LedgerStack;
const namespace = `team-burst-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  stack = await startLedgerStack({
    store: 'redis',
    redisUrl: inject('redisUrl'),
    ledger: 'postgres',
  });
  await writeAccount(stack.store, namespace);
  const answer = computeFakeAnswer({ model: 'claude-sonnet-4-6', bodyBytes: 0, behaviour: {} });
  stack.fake.setBehaviour({
    firstByteDelayMs: 20,
    reasoningTokens: MAX_TOKENS - answer.textTokens,
  });
  stack.startRecorder();
}, 60_000);

afterAll(async () => {
  await stack.close();
});

interface Burst {
  admitted: string[];
  refused: number;
}

/** One call; its request id when admitted, null when refused for the quota. */
async function callOnce(client: Anthropic, stream: boolean): Promise<string | null> {
  const request = {
    model: 'claude-sonnet-4-6',
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user' as const, content: 'a burst against a five-cent quota' }],
  };
  try {
    if (!stream) {
      const { response } = await client.messages.create(request).withResponse();
      return response.headers.get('x-tollgate-request-id');
    }
    const { data, response } = await client.messages
      .create({ ...request, stream: true })
      .withResponse();
    let stopped = false;
    for await (const event of data) stopped ||= event.type === 'message_stop';
    expect(stopped).toBe(true);
    return response.headers.get('x-tollgate-request-id');
  } catch (error) {
    if (error instanceof Anthropic.RateLimitError && error.message.includes('TG_QUOTA_EXHAUSTED')) {
      return null;
    }
    throw error;
  }
}

async function burst(apiKey: string, stream: boolean): Promise<Burst> {
  const client = new Anthropic({ apiKey, baseURL: stack.base, maxRetries: 0 });
  const results = await Promise.all(Array.from({ length: CALLS }, () => callOnce(client, stream)));
  const admitted = results.filter((id): id is string => id !== null);
  return { admitted, refused: CALLS - admitted.length };
}

describe.each([
  { name: 'non-streamed', stream: false },
  { name: 'streamed', stream: true },
])('a 100-way $name burst against a $0.05 quota', ({ stream }) => {
  it('is over the quota by less than one call, and the ledger equals the counters', async () => {
    const key = await createKey(stack.store, stack.secrets, {
      platform: 'Anthropic',
      namespace,
      overrides: {
        limits: { quotaNano: QUOTA_NANO, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
      },
      group: { priceOverrides: { 'claude-sonnet-4-6': price } },
    });
    const keyUid = key.policy.keyUid;
    const { admitted, refused } = await burst(key.value, stream);
    expect(admitted.length).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);

    const { db } = stack.ledger;
    const rowsOf = () =>
      db.query(
        `SELECT request_id, cost_nano FROM usage_records WHERE namespace = $1 AND key_uid = $2`,
        [namespace, keyUid],
      );
    await waitUntil(async () => (await rowsOf()).length >= admitted.length);
    const rows = await rowsOf();
    expect(rows.map((row) => String(row.request_id)).sort()).toEqual([...admitted].sort());
    const costs = rows.map((row) => readNumber(row.cost_nano));
    const cost = Math.max(...costs);
    const ledgerTotal = costs.reduce((sum, value) => sum + value, 0);

    const counters = await stack.store.keyCounters(namespace, keyUid, Date.now());
    expect(counters.reservedNano).toBe(0);
    expect(counters.usedNano).toBe(ledgerTotal);
    expect(counters.usedNano).toBeLessThan(QUOTA_NANO + cost);
    // The quota was reached: one more call would not have fitted under it.
    expect(counters.usedNano + cost).toBeGreaterThanOrEqual(QUOTA_NANO);
  }, 60_000);
});

describe('the account after both bursts', () => {
  it("has a lifetime total in the ledger equal to the account's spend", async () => {
    const { db } = stack.ledger;
    const spent = (await stack.store.accountCounters(namespace)).spentNano;
    expect(spent).toBeGreaterThan(0);
    await waitUntil(async () => {
      const [totals] = await db.query(
        'SELECT sum(cost_nano) AS cost FROM usage_totals WHERE namespace = $1',
        [namespace],
      );
      return readNumber(totals?.cost) === spent;
    });
    const [records] = await db.query(
      'SELECT count(*) AS n, count(DISTINCT request_id) AS ids, sum(cost_nano) AS cost FROM usage_records WHERE namespace = $1',
      [namespace],
    );
    expect(readNumber(records?.n)).toBe(readNumber(records?.ids));
    expect(readNumber(records?.cost)).toBe(spent);
    expect(await stack.store.pendingUsageRecords(namespace, 10)).toEqual([]);
  });
});
