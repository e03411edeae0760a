/**
 * The dashboard's endpoints: top keys from a real ledger (PGlite), and the account's standing
 * (credit, spent, balance, in flight / limit) from the Account and the store's live counters, on
 * the memory store and on a real Redis; the Account's status when the console has no store; and
 * refusals for a user of another namespace.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { insertUsageRecords } from '../../../ledger/insert-usage-records.js';
import type { LedgerDatabase } from '../../../ledger/ledger-database.js';
import { openLedgerDatabase } from '../../../ledger/open-ledger-database.js';
import { makeRecord } from '../../support/ledger/make-record.js';
import { createMemoryStore } from '../../../store/memory-store.js';
import { createRedisStore } from '../../../store/redis-store.js';
import type { Store } from '../../../store/store.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { accountPolicy, admission, settlement } from '../store/store-fixtures.js';
import { buildConsole, call, signIn, writeUsersSecret, type Signed } from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const H = 3_600_000;
const D = 24 * H;
const M = 1_000_000;

const users = [
  { username: 'wes', password: 'wes-password-123', groups: ['team-w-viewers'] },
  { username: 'xia', password: 'xia-password-123', groups: ['team-x-managers'] },
];

let plane: Plane;
let folder: string;
let ledger: LedgerDatabase;
const apps: ConsoleApp[] = [];
const stores: Store[] = [];

const ACCOUNT = `apiVersion: tollgate.dev/v1alpha1
kind: Account
metadata: { name: default, namespace: team-w }
spec: { displayName: Team W, creditUSD: "10", maxConcurrentRequests: 4 }
`;

beforeAll(async () => {
  plane = await startPlane();
  for (const namespace of ['team-w', 'team-x']) await plane.ok(['create', 'namespace', namespace]);
  const bind = (name: string, role: string, flags: string[]) =>
    plane.ok(['create', 'rolebinding', name, '--clusterrole', role, ...flags]);
  await bind('w-viewers', 'tollgate-viewer', ['--group', 'team-w-viewers', '-n', 'team-w']);
  await bind('x-managers', 'tollgate-key-manager', ['--group', 'team-x-managers', '-n', 'team-x']);
  await writeUsersSecret(plane, users);
  await plane.ok(['apply', '-f', '-'], ACCOUNT);
  folder = mkdtempSync(join(tmpdir(), 'tollgate-console-dashboard-'));
  ledger = await openLedgerDatabase({ dataDir: join(folder, 'ledger') });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const store of stores) await store.close();
  await ledger.close();
  rmSync(folder, { recursive: true, force: true });
  await plane.stop();
});

function consoleWith(parts: { store?: Store; now?: number }): ConsoleApp {
  const app = buildConsole(plane, {
    parts: {
      ledger,
      ...(parts.store === undefined ? {} : { store: parts.store }),
      ...(parts.now === undefined ? {} : { now: () => parts.now ?? 0 }),
    },
  });
  apps.push(app);
  return app;
}

const get = (app: ConsoleApp, signed: Signed, url: string) =>
  call(app, signed, { method: 'GET', url: `/api/v1/accounts/${url}` });

interface Standing {
  creditUSD: string | null;
  spentUSD: string | null;
  balanceUSD: string | null;
  spentFraction: number | null;
  reservedUSD: string | null;
  inFlight: number | null;
  maxConcurrentRequests: number | null;
  source: string;
  hasAccount: boolean;
}

describe('top keys', () => {
  const NOW = Date.UTC(2026, 2, 20, 15);
  it('ranks the keys of the last 30 days by cost, with their names; limit and range apply', async () => {
    await insertUsageRecords(ledger, [
      makeRecord({
        requestId: 't-1',
        time: NOW - H,
        namespace: 'team-w',
        keyUid: 'k1',
        keyName: 'cheap',
        costNano: 1 * M,
      }),
      makeRecord({
        requestId: 't-2',
        time: NOW - 2 * H,
        namespace: 'team-w',
        keyUid: 'k2',
        keyName: 'dear',
        costNano: 9 * M,
      }),
      makeRecord({
        requestId: 't-3',
        time: NOW - 3 * D,
        namespace: 'team-w',
        keyUid: 'k3',
        keyName: 'mid',
        costNano: 4 * M,
      }),
      makeRecord({
        requestId: 't-4',
        time: NOW - 40 * D,
        namespace: 'team-w',
        keyUid: 'k4',
        keyName: 'gone',
        costNano: 99 * M,
      }),
      makeRecord({
        requestId: 't-5',
        time: NOW - H,
        namespace: 'team-x',
        keyUid: 'k5',
        keyName: 'other',
        costNano: 50 * M,
      }),
    ]);
    const app = consoleWith({ now: NOW });
    const viewer = await signIn(app, users[0]!);
    const answer = await get(app, viewer, 'team-w/usage/top-keys');
    expect(answer.statusCode).toBe(200);
    const body = answer.json<{
      from: string;
      keys: { keyName: string; costNano: number; costShare: number }[];
    }>();
    expect(body.from).toBe(new Date(NOW - 30 * D).toISOString());
    expect(body.keys.map((key) => [key.keyName, key.costNano])).toEqual([
      ['dear', 9 * M],
      ['mid', 4 * M],
      ['cheap', 1 * M],
    ]);
    expect(body.keys[0]!.costShare).toBeCloseTo(9 / 14, 10);
    const two = await get(app, viewer, 'team-w/usage/top-keys?limit=2');
    expect(two.json<{ keys: unknown[] }>().keys).toHaveLength(2);
    const from = new Date(NOW - D).toISOString();
    const lastDay = await get(app, viewer, `team-w/usage/top-keys?from=${from}`);
    expect(lastDay.json<{ keys: { keyName: string }[] }>().keys.map((key) => key.keyName)).toEqual([
      'dear',
      'cheap',
    ]);
    expect((await get(app, viewer, 'team-w/usage/top-keys?limit=0')).statusCode).toBe(400);
  });
});

describe.each([
  ['memory', () => createMemoryStore({ dataDir: join(folder, `store-${randomUUID()}`) })],
  [
    'redis',
    () => createRedisStore({ url: inject('redisUrl'), prefix: `test:console:${randomUUID()}:` }),
  ],
])('account standing on the %s store', (_kind, open) => {
  it('shows credit, live spent and balance, reservations and requests in flight against the limit', async () => {
    const store = await open();
    stores.push(store);
    const now = Date.now();
    await store.putAccount('team-w', accountPolicy('team-w', { creditNano: 10_000 * M }));
    const who = { namespace: 'team-w', keyUid: 'k1', now };
    await store.settle(settlement(who, { costNano: 2_500 * M }));
    // Two requests hold a slot; a third's lease has already ended.
    await store.admit(admission(who, { estimateNano: 100 * M }));
    await store.admit(admission(who, { estimateNano: 100 * M }));
    await store.admit(
      admission({ ...who, now: now - 120_000 }, { leaseMs: 1_000, estimateNano: 0 }),
    );
    const app = consoleWith({ store });
    const viewer = await signIn(app, users[0]!);
    const answer = await get(app, viewer, 'team-w/usage/account');
    expect(answer.statusCode).toBe(200);
    expect(answer.json<Standing>()).toMatchObject({
      hasAccount: true,
      creditUSD: '10',
      spentUSD: '2.5',
      balanceUSD: '7.5',
      spentFraction: 0.25,
      reservedUSD: '0.2',
      inFlight: 2,
      maxConcurrentRequests: 4,
      source: 'store',
    });
  });
});

describe('account standing without a store', () => {
  it("falls back to the Account's status, says so, and refuses other namespaces' users", async () => {
    await plane.ok([
      'patch',
      'account',
      'default',
      '-n',
      'team-w',
      '--subresource',
      'status',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ status: { spentUSD: '1.25', balanceUSD: '8.75' } }),
    ]);
    const app = consoleWith({});
    const viewer = await signIn(app, users[0]!);
    const standing = (await get(app, viewer, 'team-w/usage/account')).json<Standing>();
    expect(standing).toMatchObject({
      creditUSD: '10',
      spentUSD: '1.25',
      balanceUSD: '8.75',
      inFlight: null,
      reservedUSD: null,
      source: 'status',
    });
    const stranger = await signIn(app, users[1]!);
    for (const url of ['team-w/usage/account', 'team-w/usage/top-keys']) {
      const refused = await get(app, stranger, url);
      expect(refused.statusCode, url).toBe(403);
    }
    const none = (await get(app, stranger, 'team-x/usage/account')).json<Standing>();
    expect(none).toMatchObject({
      hasAccount: false,
      creditUSD: null,
      spentUSD: null,
      inFlight: null,
    });
  });
});
