/**
 * Child process, scenarios C and D: Tollgate itself, `build()` on the memory store or on Redis,
 * with the bench's upstreams, account and keys written through the store's writer API (as the
 * operator would). `--workers N` runs N cluster workers on one port (`gateway/run-gateway-workers`).
 * Reads its settings from the JSON file named by argv[2]; SIGTERM drains and exits (so
 * `--cpu-prof` gets written).
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { build } from '../gateway/app.js';
import { createAppConfig } from '../gateway/gateway-config.js';
import { runInWorkers } from '../gateway/run-gateway-workers.js';
import { createStore } from '../store/create-store.js';
import { hashKeyValue } from '../store/hash-key-value.js';
import type { Platform } from '../store/store.js';
import {
  keyPolicy,
  writeAccount,
  writeUpstreams,
} from '../test/integration/gateway/gateway-fixture.js';
import type { BenchCredentials, BenchPlatform } from './describe-bench-requests.js';
import { answerProfileRequests } from './record-cpu-profile.js';

export interface BenchGatewaySettings {
  store: 'memory' | 'redis';
  redisUrl: string;
  redisPrefix: string;
  providerUrl: string;
  port: number;
  workers: number;
  keys: BenchCredentials;
  pepperHex: string;
  credentialKeyHex: string;
}

const PLATFORM: Record<BenchPlatform, Platform> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  gemini: 'Gemini',
};
const NAMESPACE = 'bench';

const settings = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BenchGatewaySettings;

async function serve(): Promise<void> {
  const secrets = {
    pepper: Buffer.from(settings.pepperHex, 'hex'),
    credentialKey: Buffer.from(settings.credentialKeyHex, 'hex'),
  };
  const store = await createStore(
    settings.store === 'redis' ? { redisUrl: settings.redisUrl, prefix: settings.redisPrefix } : {},
  );
  await writeUpstreams(store, { secrets, baseURL: settings.providerUrl });
  await writeAccount(store, NAMESPACE);
  for (const [platform, value] of Object.entries(settings.keys) as [BenchPlatform, string][]) {
    const policy = keyPolicy({ platform: PLATFORM[platform], namespace: NAMESPACE });
    await store.putKeyPolicy(hashKeyValue(secrets.pepper, value), policy);
  }
  const app = build({
    store,
    config: createAppConfig(secrets, { logLevel: 'warn', leaseMs: 60_000 }),
  });
  await app.listen({ port: settings.port, host: '127.0.0.1' });
  if (settings.workers <= 1) {
    answerProfileRequests();
    process.send?.({ type: 'ready' });
  }
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
    process.once('disconnect', resolve);
  });
  app.server.closeAllConnections();
  await app.close();
  await store.close();
}

if (settings.workers > 1 && cluster.isPrimary) {
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
await runInWorkers({
  workers: settings.workers,
  start: serve,
  onListening: () => process.send?.({ type: 'ready' }),
});
process.exit(0);
