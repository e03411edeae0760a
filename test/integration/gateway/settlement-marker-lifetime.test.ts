/**
 * The gateway gives its store the settlement marker lifetime that covers its own retries
 * (store/settled-markers.ts): twice `--settlement-retry-ms`, read from the memory store's file of a
 * real `run-gateway.ts` process after one call.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MEMORY_STORE_FILE } from '../../../store/memory-store.js';
import { readStoredNamespace } from '../store/memory-store-file.js';
import { postMessage, startGatewayProcess, type GatewayProcess } from './spawn-run-gateway.js';

let gateway: GatewayProcess;
const RETRY_MS = 1_800_000;

beforeAll(async () => {
  gateway = await startGatewayProcess({
    namespace: 'team-markers',
    env: { TOLLGATE_SETTLEMENT_RETRY_MS: String(RETRY_MS) },
  });
}, 60_000);

afterAll(async () => {
  await gateway.stop();
});

/** The settled markers (request id, expiry) of the namespace, once the store file exists. */
async function settledMarkers(): Promise<[string, number][]> {
  const file = join(gateway.dataDir, MEMORY_STORE_FILE);
  if (!existsSync(file)) return [];
  return [...(await readStoredNamespace(gateway.dataDir, 'team-markers')).settled];
}

it('remembers a settled call for twice the settlement retry window', async () => {
  // The gateway settles at some moment between these two readings of the clock.
  const before = Date.now();
  const answered = await postMessage(gateway);
  expect(answered.statusCode).toBe(200);
  await answered.body.text();
  let markers = await settledMarkers();
  for (let attempt = 0; attempt < 200 && markers.length === 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    markers = await settledMarkers();
  }
  const after = Date.now();
  expect(markers).toHaveLength(1);
  const [, expires] = markers[0] ?? ['', 0];
  expect(expires).toBeGreaterThanOrEqual(before + 2 * RETRY_MS);
  expect(expires).toBeLessThanOrEqual(after + 2 * RETRY_MS);
});
