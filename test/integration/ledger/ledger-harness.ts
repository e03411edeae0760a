/**
 * The gateway, the store and the recorder wired as in production, for the ledger suites: a real
 * store (memory with the recorder's queue, or a private Redis), the fake provider as every upstream,
 * the gateway on a real port, a ledger (PGlite or the machine's PostgreSQL) and the recorder service
 * draining the store into it.
 */
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { LedgerDatabase } from '../../../ledger/ledger-database.js';
import { readNumber } from '../../../ledger/ledger-database.js';
import { createUsageStreamLister } from '../../../ledger/recorder/list-usage-streams.js';
import { MemoryRecordQueue } from '../../../store/memory-usage-record-source.js';
import type { RecordSource } from '../../../store/usage-record-source.js';
import { createRedisRecordSource } from '../../../store/redis-usage-record-source.js';
import {
  startRecorderService,
  type RecorderService,
} from '../../../ledger/start-recorder-service.js';
import { openTestLedger, type TestLedger } from '../../support/ledger/ledger-test-databases.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { connectRedisClient, type RedisClient } from '../../../store/connect-redis-client.js';
import { createMemoryStore } from '../../../store/memory-store.js';
import { createRedisKeyNames } from '../../../store/redis-key-names.js';
import { createRedisStore } from '../../../store/redis-store.js';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  newSecrets,
  writeUpstreams,
  type Secrets,
} from '../../support/gateway-fixture.js';

export interface LedgerStack {
  store: Store;
  ledger: TestLedger;
  fake: FakeProvider;
  secrets: Secrets;
  gateway: FastifyInstance;
  base: string;
  registry: Registry;
  /** Starts (again) the recorder service; `stopRecorder` ends it and clears its metrics. */
  startRecorder(): void;
  stopRecorder(): Promise<void>;
  close(): Promise<void>;
}

const QUIET = { info: () => undefined, warn: () => undefined };

/** The recorder's source on the usage streams of a Redis store (its own client, to disconnect). */
export function redisRecordSource(options: { url: string; prefix: string; consumer: string }): {
  client: RedisClient;
  source: RecordSource;
} {
  const client = connectRedisClient({ url: options.url });
  const source = createRedisRecordSource({
    redis: client,
    listStreams: createUsageStreamLister({ client, names: createRedisKeyNames(options.prefix) }),
    consumer: options.consumer,
  });
  return { client, source };
}

export async function startLedgerStack(options: {
  store: 'memory' | 'redis';
  redisUrl?: string;
  ledger: LedgerDatabase['kind'];
  timeZone?: string;
  /** Rewrites the PostgreSQL ledger's URL before it is opened (to reach it through a proxy). */
  reachLedgerThrough?: (databaseUrl: string) => string;
}): Promise<LedgerStack> {
  const queue = new MemoryRecordQueue();
  const prefix = `tg-ledger-${randomUUID().slice(0, 8)}:`;
  let client: RedisClient | null = null;
  let store: Store;
  let source: RecordSource;
  if (options.store === 'memory') {
    store = await createMemoryStore({ recordQueue: queue });
    source = queue.consumer('test');
  } else {
    const url = options.redisUrl ?? '';
    store = await createRedisStore({ url, prefix });
    ({ client, source } = redisRecordSource({ url, prefix, consumer: 'test' }));
  }
  const ledger = await openTestLedger(
    options.ledger,
    options.reachLedgerThrough === undefined ? {} : { reachThrough: options.reachLedgerThrough },
  );
  const fake = await startFakeProvider();
  const secrets = newSecrets();
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  const gateway = buildGateway(store, secrets);
  const base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  const registry = new Registry();
  let service: RecorderService | null = null;
  const stack: LedgerStack = {
    store,
    ledger,
    fake,
    secrets,
    gateway,
    base,
    registry,
    startRecorder: () => {
      service = startRecorderService({
        source,
        db: ledger.db,
        store,
        registry,
        retentionDays: 90,
        timeZone: options.timeZone ?? 'UTC',
        log: QUIET,
        restoreEveryMs: 100,
      });
    },
    stopRecorder: async () => {
      await service?.stop();
      service = null;
      // A recorder started again registers its metrics anew (as a restarted process would).
      registry.clear();
    },
    close: async () => {
      await stack.stopRecorder();
      await gateway.close();
      await fake.close();
      await store.close();
      client?.disconnect();
      await ledger.drop();
    },
  };
  return stack;
}

/** The official Anthropic SDK pointed at the gateway with a Tollgate key. */
export function anthropicClient(stack: Pick<LedgerStack, 'base'>, apiKey: string): Anthropic {
  return new Anthropic({ apiKey, baseURL: stack.base, maxRetries: 0 });
}

/** Sends one Messages call; returns the gateway's request id. */
export async function callMessages(
  client: Anthropic,
  options: { model: string; stream: boolean },
): Promise<string> {
  const request = {
    model: options.model,
    max_tokens: 32,
    messages: [{ role: 'user' as const, content: 'ledger' }],
  };
  if (options.stream) {
    const { data, response } = await client.messages
      .create({ ...request, stream: true })
      .withResponse();
    let events = 0;
    for await (const event of data) events += event.type === 'message_stop' ? 1 : 0;
    if (events !== 1) throw new Error('the stream did not end with message_stop');
    return response.headers.get('x-tollgate-request-id') ?? '';
  }
  const { response } = await client.messages.create(request).withResponse();
  return response.headers.get('x-tollgate-request-id') ?? '';
}

export async function countRecords(db: LedgerDatabase, namespace: string): Promise<number> {
  const rows = await db.query('SELECT count(*) AS n FROM usage_records WHERE namespace = $1', [
    namespace,
  ]);
  return readNumber(rows[0]?.n);
}

/** Polls until `check` holds; a wait that runs out fails the test instead of passing silently. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`condition not met within ${timeoutMs} ms: ${check.toString()}`);
}
