/**
 * The network to PostgreSQL cut under load: eight clients call the gateway through the official
 * Anthropic SDK in a loop (a private Redis prefix, the recorder draining the usage streams into a
 * PostgreSQL ledger reached through a TCP proxy in front of the machine's server), and the proxy
 * resets every ledger connection and refuses new ones for 3 s (the probe cut it for 20 s; the
 * recorder's behaviour is the same after its first failed retries). The gateway is unaffected
 * (every call during and around the cut answered 200), the recorder saw the cut (failed writes),
 * and afterwards every call is in the ledger exactly once, with the ledger equal to the counters.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { readNumber } from '../../../ledger/ledger-database.js';
import { MAINTENANCE_URL } from '../../support/ledger/ledger-test-databases.js';
import { startCuttableProxy, type CuttableProxy } from '../../support/cuttable-tcp-proxy.js';
import { createKey, writeAccount } from '../../support/gateway-fixture.js';
import { startLedgerStack, waitUntil, type LedgerStack } from './ledger-harness.js';

const CLIENTS = 8;
const CUT_MS = 3_000;

let proxy: CuttableProxy;
let stack: LedgerStack;
const namespace = `team-cut-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  const server = new URL(MAINTENANCE_URL);
  proxy = await startCuttableProxy({ host: server.hostname, port: Number(server.port || 5432) });
  stack = await startLedgerStack({
    store: 'redis',
    redisUrl: inject('redisUrl'),
    ledger: 'postgres',
    reachLedgerThrough: (databaseUrl) => {
      const proxied = new URL(databaseUrl);
      proxied.port = String(proxy.port);
      return proxied.toString();
    },
  });
  await writeAccount(stack.store, namespace);
  stack.startRecorder();
}, 60_000);

afterAll(async () => {
  proxy.restore();
  await stack.close();
  await proxy.close();
});

async function metric(name: string): Promise<number> {
  const found = (await stack.registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  return (found?.values ?? []).reduce((sum, value) => sum + value.value, 0);
}

it('keeps serving while the ledger is cut, then records every call exactly once', async () => {
  const key = await createKey(stack.store, stack.secrets, { platform: 'Anthropic', namespace });
  const client = new Anthropic({ apiKey: key.value, baseURL: stack.base, maxRetries: 0 });
  const ids: string[] = [];
  const failures: string[] = [];
  let running = true;
  let duringCut = 0;
  let cutOn = false;
  const loops = Array.from({ length: CLIENTS }, async () => {
    while (running) {
      try {
        const { response } = await client.messages
          .create({
            model: 'claude-sonnet-4-6',
            max_tokens: 16,
            messages: [{ role: 'user', content: 'the ledger is away' }],
          })
          .withResponse();
        ids.push(response.headers.get('x-tollgate-request-id') ?? '');
        if (cutOn) duringCut += 1;
      } catch (error) {
        failures.push(String(error));
      }
    }
  });

  await waitUntil(async () => (await metric('tollgate_recorder_records_inserted_total')) >= 20);
  cutOn = true;
  proxy.cut();
  await new Promise((resolve) => setTimeout(resolve, CUT_MS));
  proxy.restore();
  cutOn = false;
  await new Promise((resolve) => setTimeout(resolve, 500));
  running = false;
  await Promise.all(loops);

  expect(failures).toEqual([]);
  expect(duringCut).toBeGreaterThan(20);
  expect(await metric('tollgate_recorder_failures_total')).toBeGreaterThan(0);

  const { db } = stack.ledger;
  const count = async () => {
    const [row] = await db.query(
      'SELECT count(*) AS n, count(DISTINCT request_id) AS ids FROM usage_records WHERE namespace = $1',
      [namespace],
    );
    return { n: readNumber(row?.n), ids: readNumber(row?.ids) };
  };
  await waitUntil(async () => (await count()).n >= ids.length, 30_000);
  await waitUntil(async () => (await stack.store.pendingUsageRecords(namespace, 10)).length === 0);
  expect(await count()).toEqual({ n: ids.length, ids: ids.length });
  const rows = await db.query('SELECT request_id FROM usage_records WHERE namespace = $1', [
    namespace,
  ]);
  expect(rows.map((row) => String(row.request_id)).sort()).toEqual([...ids].sort());
  const [sum] = await db.query(
    'SELECT sum(cost_nano) AS cost FROM usage_records WHERE namespace = $1',
    [namespace],
  );
  const counters = await stack.store.keyCounters(namespace, key.policy.keyUid, Date.now());
  expect(readNumber(sum?.cost)).toBe(counters.usedNano);
}, 60_000);
