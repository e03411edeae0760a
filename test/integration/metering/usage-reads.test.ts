/**
 * The usage read helper and retention, on the memory store and on Redis: key today / 30 days /
 * daily breakdown / quota; account trend and model distribution; days in the configured time zone;
 * the gateway's prune removes records past the retention and keeps the rest.
 */
import { describe, expect, it } from 'vitest';
import { readAccountUsage, readKeyUsage } from '../../../gateway/metering/read-key-usage.js';
import { dayOf } from '../../../gateway/pipeline/settle-request.js';
import { buildGateway } from '../gateway/gateway-fixture.js';
import { STORE_KINDS, useMeteringGateway, waitForRecords } from './metering-harness.js';

const DAY_MS = 24 * 3600_000;
const ZONE = 'Pacific/Kiritimati';
const body = (model: string) =>
  JSON.stringify({ model, max_tokens: 32, messages: [{ role: 'user', content: 'usage' }] });

describe.each(STORE_KINDS)('usage reads and retention on the %s store', (kind) => {
  const env = useMeteringGateway(kind, {});

  it('summarises a key and its account, in the deployment time zone, and prunes old usage', async () => {
    const quotaNano = 5_000_000_000;
    const key = await env.key({
      overrides: { limits: { quotaNano, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 } },
    });
    const old = buildGateway(env.store, env.secrets, { clock: () => Date.now() - 100 * DAY_MS });
    const zoned = buildGateway(env.store, env.secrets, { config: { timeZone: ZONE } });
    try {
      const oldAnswer = await old.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: { 'content-type': 'application/json', 'x-api-key': key.value },
        payload: body('claude-sonnet-4-5'),
      });
      expect(oldAnswer.statusCode).toBe(200);
      for (const model of ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-haiku-4-5']) {
        const answer = await zoned.inject({
          method: 'POST',
          url: '/v1/messages',
          headers: { 'content-type': 'application/json', 'x-api-key': key.value },
          payload: body(model),
        });
        expect(answer.statusCode).toBe(200);
      }
    } finally {
      await Promise.all([old.close(), zoned.close()]);
    }
    const records = await waitForRecords(env, { keyUid: key.keyUid, count: 4 });
    expect(records).toHaveLength(4);
    const recent = records.filter((record) => record.time > Date.now() - DAY_MS);
    const recentCost = recent.reduce((total, record) => total + record.costNano, 0);
    const allCost = records.reduce((total, record) => total + record.costNano, 0);

    const now = Date.now();
    const usage = await readKeyUsage(env.store, {
      namespace: env.namespace,
      keyUid: key.keyUid,
      quotaNano,
      now,
      timeZone: ZONE,
    });
    expect(usage.daily).toHaveLength(30);
    expect(usage.daily.at(-1)?.day).toBe(dayOf(now, ZONE));
    expect(usage.today).toMatchObject({ requests: 3, costNano: recentCost });
    expect(usage.last30Days).toMatchObject({ requests: 3, costNano: recentCost });
    expect(usage.quota).toEqual({
      usedNano: allCost,
      reservedNano: 0,
      quotaNano,
      remainingNano: quotaNano - allCost,
    });

    const account = await readAccountUsage(env.store, {
      namespace: env.namespace,
      now,
      timeZone: ZONE,
    });
    expect(account.trend).toHaveLength(30);
    expect(account.total).toMatchObject({ requests: 3, costNano: recentCost });
    expect(account.models.map((model) => [model.model, model.requests])).toEqual([
      ['claude-sonnet-4-5', 1],
      ['claude-haiku-4-5', 2],
    ]);
    expect(account.spentNano).toBe(allCost);

    // The gateway prunes only namespaces it settled for: make this one seen, then prune.
    const fresh = await env.key();
    const answer = await env.call({
      path: '/v1/messages',
      apiKey: fresh.value,
      body: body('claude-haiku-4-5'),
    });
    expect(answer.status).toBe(200);
    await env.waitForRecords(fresh.keyUid, 1);
    expect(await env.app.gateway.pruneUsage()).toBe(1);
    const kept = await waitForRecords(env, { keyUid: key.keyUid, count: 3 });
    expect(kept.map((record) => record.requestId).sort()).toEqual(
      recent.map((record) => record.requestId).sort(),
    );
    expect(await env.app.gateway.pruneUsage()).toBe(0);
  });
});
