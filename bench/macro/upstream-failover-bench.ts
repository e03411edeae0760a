/**
 * Upstream failover benchmark (docs/benchmarks.md, "Upstream failover"): what failing over to the
 * second upstream after a refused connection adds to a call, and the Redis commands per call.
 *
 * One process: the gateway (`build()`) on a private Redis, the fake provider as the serving
 * upstream, a closed port as the refused one. Sequential non-streamed Messages calls over one
 * keep-alive connection, alternating blocks of the two groups so drift hits both alike:
 *   direct:   upstreamRefs [serving]
 *   failover: upstreamRefs [refused (priority 0), serving (priority 1)]
 * The circuit threshold is set out of reach so the refused upstream is tried on every call (the
 * worst case: in service its circuit opens after `--upstream-failure-threshold` failures and it
 * is skipped). Redis commands per call come from INFO commandstats (RESETSTAT before each phase).
 *
 *   npx tsx bench/macro/upstream-failover-bench.ts [--calls 2000] [--block 100] [--out file.json]
 *   npx tsx bench/macro/upstream-failover-bench.ts --commands-only   (runs on trees before failover too)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { build } from '../../gateway/app.js';
import { createAppConfig } from '../../gateway/gateway-config.js';
import { startFakeProvider } from '../../local/simulator/start-fake-provider.js';
import { createStore } from '../../store/create-store.js';
import { hashKeyValue } from '../../store/hash-key-value.js';
import { sealCredential } from '../../store/seal-credential.js';
import type { KeyPolicy, UpstreamRef } from '../../store/policy-documents.js';
import type { Store } from '../../store/store.js';
import { startRedisServer } from '../../test/support/redis-server.js';
import { summarizeLatencies } from '../support/compute-percentiles.js';
import { countCommands, parseCommandStats } from '../support/read-redis-commandstats.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';
import { markPoliciesProgrammed } from '../../test/support/gateway-fixture.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    block: { type: 'string', default: '100' },
    out: { type: 'string' },
    'commands-only': { type: 'boolean', default: false },
  },
});
const calls = Number(values.calls);
const block = Number(values.block);
const NAMESPACE = 'bench-failover';
const BODY = JSON.stringify({
  model: 'claude-sonnet-4-6',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'hi' }],
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function putUpstream(store: Store, credentialKey: Buffer, name: string, baseURL: string) {
  await store.putUpstream({
    digest: randomUUID(),
    name,
    platform: 'Anthropic',
    baseURL,
    sealedCredential: sealCredential(
      credentialKey,
      JSON.stringify({ apiKey: 'fake-upstream-key' }),
    ),
    credentialType: 'APIKey',
    oauth: null,
    maxConcurrent: 0,
    modelOverrides: {},
    chatCompletions: 'Translate',
  });
}

async function putKey(store: Store, pepper: Buffer, upstreams: UpstreamRef[]): Promise<string> {
  const value = `sk-tg-${randomBytes(20).toString('hex')}`;
  const uid = randomUUID();
  const policy: KeyPolicy = {
    digest: randomUUID(),
    keyUid: uid,
    namespace: NAMESPACE,
    name: `bench-${uid.slice(0, 8)}`,
    state: 'Active',
    suspended: false,
    expiresAt: null,
    limits: { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
    sourceRanges: { allow: [], deny: [] },
    maxConcurrent: 0,
    modelsAllow: null,
    group: {
      name: 'bench-group',
      platform: 'Anthropic',
      multiplier: { numerator: 1, denominator: 1 },
      multiplierText: '1',
      upstreams,
      modelsAllow: null,
      priceOverrides: {},
      priceFallback: null,
    },
  };
  await store.putKeyPolicy(hashKeyValue(pepper, value), policy);
  return value;
}

async function main(): Promise<void> {
  const facts = describeBenchFacts('bench/macro/upstream-failover-bench.ts');
  const redis = await startRedisServer();
  const observer = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  const store = await createStore({ redisUrl: redis.url, prefix: 'bench:' });
  const provider = await startFakeProvider();
  const pepper = randomBytes(32);
  const credentialKey = randomBytes(32);
  await putUpstream(store, credentialKey, 'serving', provider.url);
  await putUpstream(store, credentialKey, 'refused', `http://127.0.0.1:${await closedPort()}`);
  await store.putAccount(NAMESPACE, {
    digest: 'bench',
    uid: 'bench-account',
    namespace: NAMESPACE,
    creditNano: null,
    maxConcurrent: 0,
  });
  // As the operator's full program ends: a miss is then a real miss, not "not back yet".
  await markPoliciesProgrammed(store);
  const direct = await putKey(store, pepper, [{ name: 'serving', weight: 1, priority: 0 }]);
  const failover = await putKey(store, pepper, [
    { name: 'refused', weight: 1, priority: 0 },
    { name: 'serving', weight: 1, priority: 1 },
  ]);
  // Extra fields are ignored by a gateway before failover (the --commands-only run on old trees).
  const config = createAppConfig(
    { pepper, credentialKey },
    { logLevel: 'silent', leaseSweepMs: 0, upstreamFailureThreshold: 1_000_000_000 },
  );
  const app = build({ store, config });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const agent = new Agent({ connections: 1, keepAliveTimeout: 60_000 });

  async function timedCall(apiKey: string): Promise<number> {
    const started = process.hrtime.bigint();
    const response = await request(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: BODY,
      dispatcher: agent,
    });
    await response.body.text();
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    return elapsed;
  }

  async function commandsPerCall(apiKey: string, count: number) {
    for (let index = 0; index < 20; index++) await timedCall(apiKey); // warm caches
    await new Promise((resolve) => setTimeout(resolve, 200));
    await observer.config('RESETSTAT');
    for (let index = 0; index < count; index++) await timedCall(apiKey);
    await new Promise((resolve) => setTimeout(resolve, 300)); // settlements after close
    const counted = countCommands(parseCommandStats(await observer.info('commandstats')));
    const perCall = (value: number) => Math.round((value / count) * 100) / 100;
    return {
      scriptCalls: perCall(counted.scripts),
      byCommand: Object.fromEntries(
        Object.entries(counted.byCommand).map(([command, value]) => [command, perCall(value)]),
      ),
    };
  }

  const commands = {
    direct: await commandsPerCall(direct, 200),
    ...(values['commands-only'] ? {} : { failover: await commandsPerCall(failover, 200) }),
  };
  let latency = null;
  if (!values['commands-only']) {
    const samples: Record<'direct' | 'failover', number[]> = { direct: [], failover: [] };
    for (let done = 0; done < calls; done += block) {
      for (let index = 0; index < block; index++) samples.direct.push(await timedCall(direct));
      for (let index = 0; index < block; index++) samples.failover.push(await timedCall(failover));
    }
    const direct50 = summarizeLatencies(samples.direct);
    const failover50 = summarizeLatencies(samples.failover);
    latency = {
      direct: direct50,
      failover: failover50,
      addedMs: {
        p50: failover50.p50 - direct50.p50,
        mean: failover50.mean - direct50.mean,
        p99: failover50.p99 - direct50.p99,
        // Call i of each kind ran close together (with --block 1, back to back): the median of
        // their differences is the least disturbed by load from outside.
        pairedMedian: summarizeLatencies(
          samples.failover.map((value, index) => value - (samples.direct[index] ?? value)),
        ).p50,
      },
    };
  }
  const result = {
    facts,
    time: new Date().toISOString(),
    node: process.version,
    calls,
    commands,
    latency,
  };
  const text = JSON.stringify(result, null, 2);
  if (values.out !== undefined) {
    writeFileSync(values.out, `${text}\n`);
    updateBenchSummaries();
  }
  process.stdout.write(`${text}\n`);
  await agent.close();
  await app.close();
  await provider.close();
  await store.close();
  observer.disconnect();
  await redis.stop();
}

await main();
