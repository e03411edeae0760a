/**
 * The metering settings (`TOLLGATE_PRICE_FILE`, `TOLLGATE_USAGE_RETENTION_DAYS`, the time zone) and
 * a gateway that bills a model priced only in the operator's LiteLLM file, with that file's version.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGatewaySettings } from '../../../gateway/gateway-config.js';
import { buildGateway } from '../../support/gateway-fixture.js';
import { useMeteringGateway, waitForRecords } from './metering-harness.js';

const folder = mkdtempSync(join(tmpdir(), 'tollgate-price-file-'));
const priceFile = join(folder, 'litellm.json');
writeFileSync(
  priceFile,
  JSON.stringify({
    'claude-house-1': {
      litellm_provider: 'anthropic',
      mode: 'chat',
      input_cost_per_token: 2e-6,
      output_cost_per_token: 1e-5,
    },
  }),
);
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('metering settings', () => {
  it('reads the price file and time zone from the environment (retention is the recorder flag)', () => {
    const settings = parseGatewaySettings([], {
      TOLLGATE_PRICE_FILE: priceFile,
      TOLLGATE_TIME_ZONE: 'Europe/Berlin',
    });
    expect(settings).toMatchObject({ priceFile, timeZone: 'Europe/Berlin' });
    expect(parseGatewaySettings([], {})).toMatchObject({ timeZone: 'UTC' });
    expect(() => parseGatewaySettings(['--usage-retention-days', '30'], {})).toThrow(
      /unknown flag/,
    );
  });
});

describe('a gateway with a LiteLLM price file', () => {
  const env = useMeteringGateway('memory');

  it('bills a model priced only in the file, with its version', async () => {
    const key = await env.key();
    const body = JSON.stringify({
      model: 'claude-house-1',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const without = await env.call({ path: '/v1/messages', apiKey: key.value, body });
    expect(without.status).toBe(400);
    expect(without.text).toContain('TG_MODEL_NOT_PRICED');

    const priced = buildGateway(env.store, env.secrets, { config: { priceFile } });
    try {
      const answer = await priced.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: { 'content-type': 'application/json', 'x-api-key': key.value },
        payload: body,
      });
      expect(answer.statusCode).toBe(200);
    } finally {
      await priced.close();
    }
    const [record] = await waitForRecords(env, { keyUid: key.keyUid, count: 1 });
    expect(record?.priceVersion).toMatch(/\+litellm-[0-9a-f]{12}$/);
    const { inputUncached, output } = record!.usage;
    expect(record?.costNano).toBe(inputUncached * 2000 + output * 10000);
    expect(record?.costNano).toBeGreaterThan(0);
  });
});
