/**
 * The console when its usage ledger goes away, three real ways: the PostgreSQL server becomes
 * unreachable (a TCP proxy in front of the machine's PostgreSQL is cut: connections refused, pooled
 * ones dropped), the ledger's database is dropped (connections terminated, then "does not exist"),
 * and the embedded PGlite is closed. Key management keeps working (the keys list and a key's page
 * answer 200, today's cost null and flagged `ledgerUnavailable`), every usage route answers
 * 503 USAGE_UNAVAILABLE in the console's error shape, and the CSV export answers that error before
 * it sends a header or a line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { insertUsageRecords } from '../../../ledger/insert-usage-records.js';
import { ledgerDatabaseOf, type LedgerDatabase } from '../../../ledger/ledger-database.js';
import { openLedgerDatabase } from '../../../ledger/open-ledger-database.js';
import { makeRecord } from '../../support/ledger/make-record.js';
import { createTestDatabase, MAINTENANCE_URL } from '../../support/ledger/ledger-test-databases.js';
import { startCuttableProxy } from '../../support/cuttable-tcp-proxy.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import {
  buildConsole,
  call,
  prepareTeamK,
  signIn,
  type ApiBody,
  type Signed,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const NOW = Date.UTC(2026, 2, 20, 15);
const HOUR = 3_600_000;
const user = { username: 'lena', password: 'lena-password-123', groups: ['team-k-managers'] };

interface KeyItem {
  name: string;
  usage: { todayCostUSD: string | null; ledgerUnavailable: boolean };
}

/** A ledger the console reads, seeded while it is up, and how to take it away. */
interface BreakableLedger {
  ledger: LedgerDatabase;
  takeAway(): Promise<void> | void;
  cleanUp(): Promise<void>;
}

async function seed(ledger: LedgerDatabase, keyUid: string): Promise<void> {
  await insertUsageRecords(ledger, [
    makeRecord({
      requestId: 'l-1',
      time: NOW - HOUR,
      namespace: 'team-k',
      keyUid,
      keyName: 'ledger-key',
      costNano: 250_000_000,
    }),
  ]);
}

/** PostgreSQL reached through a proxy that is then cut. */
async function postgresBehindProxy(keyUid: string): Promise<BreakableLedger> {
  const database = await createTestDatabase();
  const direct = await openLedgerDatabase({ databaseUrl: database.databaseUrl });
  await seed(direct, keyUid);
  await direct.close();
  const server = new URL(MAINTENANCE_URL);
  const proxy = await startCuttableProxy({
    host: server.hostname,
    port: Number(server.port || 5432),
  });
  const viaProxy = new URL(database.databaseUrl);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const ledger = await openLedgerDatabase({ databaseUrl: viaProxy.toString() }, { migrate: false });
  return {
    ledger,
    takeAway: () => {
      proxy.cut();
    },
    cleanUp: async () => {
      await ledger.close();
      await proxy.close();
      await database.drop();
    },
  };
}

/** PostgreSQL whose ledger database is dropped (its connections terminated). */
async function postgresDropped(keyUid: string): Promise<BreakableLedger> {
  const database = await createTestDatabase();
  const ledger = await openLedgerDatabase({ databaseUrl: database.databaseUrl });
  await seed(ledger, keyUid);
  return {
    ledger,
    takeAway: () => database.drop(),
    cleanUp: () => ledger.close(),
  };
}

/** The embedded ledger of local mode, whose PGlite is closed under the console. */
async function pgliteClosed(keyUid: string): Promise<BreakableLedger> {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-console-ledger-down-'));
  const migrated = await openLedgerDatabase({ dataDir: folder });
  await seed(migrated, keyUid);
  await migrated.close();
  const pglite = new PGlite(join(folder, 'ledger'));
  const ledger = ledgerDatabaseOf({
    kind: 'pglite',
    kysely: new Kysely<unknown>({ dialect: new PGliteDialect(pglite) }),
  });
  return {
    ledger,
    takeAway: () => pglite.close(),
    cleanUp: () => {
      rmSync(folder, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

let plane: Plane;
let keyUid: string;

beforeAll(async () => {
  plane = await startPlane();
  await prepareTeamK(plane, user);
  await plane.ok(
    ['apply', '-f', '-'],
    [
      'apiVersion: tollgate.dev/v1alpha1',
      'kind: ApiKey',
      'metadata: { name: ledger-key, namespace: team-k }',
      "spec: { displayName: Ledger key, limits: { quotaUSD: '5' } }",
    ].join('\n'),
  );
  keyUid = await plane.ok([
    'get',
    'apikey',
    'ledger-key',
    '-n',
    'team-k',
    '-o',
    'jsonpath={.metadata.uid}',
  ]);
});

afterAll(async () => {
  await plane.stop();
});

const USAGE_ROUTES = [
  'team-k/keys/ledger-key/usage',
  'team-k/usage/trend',
  'team-k/usage/models',
  'team-k/usage/top-keys',
  'team-k/usage/records',
];

describe.each([
  { how: 'the PostgreSQL server is unreachable', open: postgresBehindProxy },
  { how: 'the ledger database is dropped', open: postgresDropped },
  { how: 'the embedded PGlite is closed', open: pgliteClosed },
])('when $how', ({ open }) => {
  let broken: BreakableLedger;
  let app: ConsoleApp;
  let signed: Signed;
  const get = (url: string) => call(app, signed, { method: 'GET', url: `/api/v1/accounts/${url}` });
  /**
   * The CSV export over a real connection, as a browser downloads it: its status, and its body, or
   * how it ended when the stream was cut after the header.
   */
  const exportCsv = async () => {
    const response = await fetch(`${origin}/api/v1/accounts/team-k/usage/records.csv`, {
      headers: { cookie: signed.cookie },
    });
    const body = await response.text().catch((error: unknown) => `cut: ${String(error)}`);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      disposition: response.headers.get('content-disposition'),
      body,
      json: () => JSON.parse(body) as ApiBody,
    };
  };
  let origin: string;

  beforeAll(async () => {
    broken = await open(keyUid);
    app = buildConsole(plane, { parts: { ledger: broken.ledger, now: () => NOW } });
    signed = await signIn(app, user);
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await app.close();
    await broken.cleanUp();
  });

  it('reads usage while the ledger is up', async () => {
    const list = await get('team-k/keys');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: KeyItem[] }>().items[0]?.usage).toMatchObject({
      todayCostUSD: '0.25',
      ledgerUnavailable: false,
    });
    const csv = await exportCsv();
    expect(csv.status).toBe(200);
    expect(csv.body.split('\r\n').filter((line) => line !== '')).toHaveLength(2);
  });

  it('keeps the keys working, answers usage with 503 and the export before it streams', async () => {
    await broken.takeAway();

    const list = await get('team-k/keys');
    const key = await get('team-k/keys/ledger-key');
    // A change to a key does not need the ledger.
    const disabled = await call(app, signed, {
      method: 'POST',
      url: '/api/v1/accounts/team-k/keys/ledger-key/disable',
      payload: {},
    });
    const enabled = await call(app, signed, {
      method: 'POST',
      url: '/api/v1/accounts/team-k/keys/ledger-key/enable',
      payload: {},
    });
    const usage = await Promise.all(USAGE_ROUTES.map((url) => get(url)));
    const csv = await exportCsv();
    // Every figure at once, so a failure shows them all.
    expect({
      list: list.statusCode,
      key: key.statusCode,
      disable: disabled.statusCode,
      enable: enabled.statusCode,
      usage: usage.map((answer) => answer.statusCode),
      csv: csv.status,
      csvType: csv.type,
    }).toEqual({
      list: 200,
      key: 200,
      disable: 200,
      enable: 200,
      usage: USAGE_ROUTES.map(() => 503),
      csv: 503,
      csvType: 'application/json; charset=utf-8',
    });

    const items = list.json<{ items: KeyItem[] }>().items;
    expect(items.map((item) => item.name)).toEqual(['ledger-key']);
    expect(items[0]?.usage).toMatchObject({ todayCostUSD: null, ledgerUnavailable: true });
    expect(key.json<KeyItem>().usage).toMatchObject({
      todayCostUSD: null,
      ledgerUnavailable: true,
    });
    for (const body of [...usage.map((answer) => answer.json<ApiBody>()), csv.json()]) {
      expect(body.error.code).toBe('USAGE_UNAVAILABLE');
      expect(body.error.message).toContain('ledger');
    }
    expect(csv.disposition).toBeNull();
  });
});
