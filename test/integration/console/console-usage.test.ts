/**
 * The usage endpoints with real ledger data (PGlite in a temporary folder): key summary with quota
 * consumption since the last reset, account trend, model distribution, records pages (keyset
 * cursor) and CSV export, as a permitted user; refused for a user of another namespace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { insertUsageRecords } from '../../../ledger/insert-usage-records.js';
import type { LedgerDatabase } from '../../../ledger/ledger-database.js';
import type { LedgerRecord } from '../../../ledger/ledger-record.js';
import { openLedgerDatabase } from '../../../ledger/open-ledger-database.js';
import { recordQuotaResets } from '../../../ledger/record-quota-resets.js';
import { makeRecord } from '../../support/ledger/make-record.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { buildConsole, call, signIn, writeUsersSecret, type Signed } from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const H = 3_600_000;
const D = 24 * H;
// 2026-03-20 15:00 UTC; the console counts days in UTC.
const NOW = Date.UTC(2026, 2, 20, 15);
const M = 1_000_000;

const users = [
  { username: 'ulf', password: 'ulf-password-123', groups: ['team-u-managers'] },
  { username: 'una', password: 'una-password-123', groups: ['team-u-viewers'] },
  { username: 'vic', password: 'vic-password-123', groups: ['team-v-managers'] },
];

let plane: Plane;
let app: ConsoleApp;
let folder: string;
let ledger: LedgerDatabase;
let keyUid: string;
let viewer: Signed;
let stranger: Signed;
let records: LedgerRecord[];

function seed(uid: string): LedgerRecord[] {
  const mine = (requestId: string, extra: Partial<LedgerRecord>) =>
    makeRecord({ requestId, namespace: 'team-u', keyUid: uid, keyName: 'ci-key', ...extra });
  return [
    mine('u-1', { time: NOW - 1 * H, model: 'claude-sonnet-4-5', costNano: 100 * M }),
    mine('u-2', { time: NOW - 2 * H, model: 'claude-opus-4-1', costNano: 50 * M, status: 500 }),
    mine('u-3', { time: NOW - 1 * D, model: 'claude-sonnet-4-5', costNano: 200 * M }),
    mine('u-4', { time: NOW - 3 * D, model: 'claude-opus-4-1', costNano: 10 * M }),
    mine('u-5', { time: NOW - 40 * D, model: 'claude-sonnet-4-5', costNano: 7 * M }),
    makeRecord({
      requestId: 'u-other',
      time: NOW - 5 * H,
      namespace: 'team-u',
      keyUid: 'uid-of-another-key',
      keyName: 'other',
      model: 'gemini-2.5-pro',
      costNano: 1 * M,
    }),
    makeRecord({
      requestId: 'v-1',
      time: NOW - 1 * H,
      namespace: 'team-v',
      keyUid: 'uid-in-team-v',
      keyName: 'v-key',
      costNano: 999 * M,
    }),
  ];
}

beforeAll(async () => {
  plane = await startPlane();
  for (const namespace of ['team-u', 'team-v']) await plane.ok(['create', 'namespace', namespace]);
  const bind = (name: string, role: string, flags: string[]) =>
    plane.ok(['create', 'rolebinding', name, '--clusterrole', role, ...flags]);
  await bind('u-managers', 'tollgate-key-manager', ['--group', 'team-u-managers', '-n', 'team-u']);
  await bind('u-viewers', 'tollgate-viewer', ['--group', 'team-u-viewers', '-n', 'team-u']);
  await bind('v-managers', 'tollgate-key-manager', ['--group', 'team-v-managers', '-n', 'team-v']);
  await writeUsersSecret(plane, users);
  folder = mkdtempSync(join(tmpdir(), 'tollgate-console-usage-'));
  ledger = await openLedgerDatabase({ dataDir: folder });
  app = buildConsole(plane, { parts: { ledger, now: () => NOW } });
  const manager = await signIn(app, users[0]!);
  const created = await call(app, manager, {
    method: 'POST',
    url: '/api/v1/accounts/team-u/keys',
    payload: { name: 'ci-key', displayName: 'CI key', limits: { quotaUSD: '1' } },
  });
  expect(created.statusCode).toBe(201);
  keyUid = created.json<{ key: { uid: string } }>().key.uid;
  records = seed(keyUid);
  await insertUsageRecords(ledger, records);
  await recordQuotaResets(ledger, [
    { type: 'quotaReset', namespace: 'team-u', keyUid, token: 'reset-1', time: NOW - 2 * D },
  ]);
  viewer = await signIn(app, users[1]!);
  stranger = await signIn(app, users[2]!);
});

afterAll(async () => {
  await app.close();
  await ledger.close();
  rmSync(folder, { recursive: true, force: true });
  await plane.stop();
});

const get = (signed: Signed, url: string) =>
  call(app, signed, { method: 'GET', url: `/api/v1/accounts/${url}` });

interface Sums {
  requests: number;
  errorRequests: number;
  costNano: number;
}

describe('usage from the ledger', () => {
  it('summarises a key: today, the last days, the daily breakdown and the quota since its reset', async () => {
    const answer = await get(viewer, 'team-u/keys/ci-key/usage?days=7');
    expect(answer.statusCode).toBe(200);
    const summary = answer.json<{
      timeZone: string;
      today: Sums;
      lastDays: Sums;
      daily: (Sums & { day: string })[];
      quota: { limitNano: number; usedNano: number; remainingNano: number } | null;
    }>();
    expect(summary.timeZone).toBe('UTC');
    expect(summary.today).toMatchObject({ requests: 2, errorRequests: 1, costNano: 150 * M });
    expect(summary.lastDays).toMatchObject({ requests: 4, costNano: 360 * M });
    expect(summary.daily.map((day) => day.day)).toEqual([
      '2026-03-14',
      '2026-03-15',
      '2026-03-16',
      '2026-03-17',
      '2026-03-18',
      '2026-03-19',
      '2026-03-20',
    ]);
    expect(summary.daily.map((day) => day.costNano)).toEqual([
      0,
      0,
      0,
      10 * M,
      0,
      200 * M,
      150 * M,
    ]);
    // 1 USD quota, reset two days ago: u-1, u-2 and u-3 count.
    expect(summary.quota).toEqual({
      limitNano: 1000 * M,
      usedNano: 350 * M,
      remainingNano: 650 * M,
      fraction: 0.35,
    });
  });

  it("draws the account's trend per day and per hour", async () => {
    const from = new Date(NOW - 3 * D - H).toISOString();
    const to = new Date(NOW).toISOString();
    const daily = await get(viewer, `team-u/usage/trend?bucket=day&from=${from}&to=${to}`);
    expect(daily.statusCode).toBe(200);
    const points = daily.json<{ points: (Sums & { label: string })[] }>().points;
    const byLabel = Object.fromEntries(points.map((point) => [point.label, point.costNano]));
    expect(byLabel).toMatchObject({
      '2026-03-17': 10 * M,
      '2026-03-19': 200 * M,
      '2026-03-20': 151 * M,
    });
    const total = points.reduce((sum, point) => sum + point.costNano, 0);
    expect(total).toBe(361 * M);
    const hourly = await get(viewer, `team-u/usage/trend?bucket=hour&from=${from}&to=${to}`);
    const hours = hourly.json<{ points: (Sums & { label: string })[] }>().points;
    expect(hours.find((point) => point.label === '2026-03-20T14:00')?.costNano).toBe(100 * M);
  });

  it('splits cost per model, for the account and for one key', async () => {
    const account = await get(viewer, 'team-u/usage/models');
    expect(account.statusCode).toBe(200);
    const models = account.json<{ models: (Sums & { model: string; costShare: number })[] }>();
    expect(models.models.map((entry) => [entry.model, entry.costNano])).toEqual([
      ['claude-sonnet-4-5', 300 * M],
      ['claude-opus-4-1', 60 * M],
      ['gemini-2.5-pro', 1 * M],
    ]);
    const key = await get(viewer, 'team-u/usage/models?key=ci-key');
    const keyModels = key.json<{ models: { model: string }[] }>().models;
    expect(keyModels.map((entry) => entry.model)).toEqual(['claude-sonnet-4-5', 'claude-opus-4-1']);
  });

  it('pages the records newest first with a keyset cursor', async () => {
    const expected = records
      .filter((record) => record.namespace === 'team-u')
      .sort((a, b) => b.time - a.time)
      .map((record) => record.requestId);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const page = await get(viewer, `team-u/usage/records?limit=3${query}`);
      expect(page.statusCode).toBe(200);
      const body = page.json<{ records: { requestId: string }[]; nextCursor: string | null }>();
      expect(body.records.length).toBeLessThanOrEqual(3);
      seen.push(...body.records.map((record) => record.requestId));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(expected);
    expect(pages).toBe(2);
    const filtered = await get(viewer, 'team-u/usage/records?key=ci-key&outcome=server_error');
    const failed = filtered.json<{ records: { requestId: string }[] }>().records;
    expect(failed.map((record) => record.requestId)).toEqual(['u-2']);
    const bad = await get(viewer, 'team-u/usage/records?cursor=not-a-cursor');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { field: string } }>().error.field).toBe('cursor');
  });

  it("exports the account's records as CSV", async () => {
    const answer = await get(viewer, 'team-u/usage/records.csv');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    // Named after the filter: the account, an open start, the export's time as the end.
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="tollgate-records-team-u-start-20260320T1500Z.csv"',
    );
    const lines = answer.body.trim().split(/\r?\n/);
    expect(lines).toHaveLength(1 + 6);
    expect(lines[0]).toMatch(/request/i);
    expect(answer.body).toContain('u-1');
    expect(answer.body).not.toContain('v-1');
  });

  it('refuses every usage call to a user of another namespace', async () => {
    for (const url of [
      'team-u/keys/ci-key/usage',
      'team-u/usage/trend',
      'team-u/usage/models',
      'team-u/usage/records',
      'team-u/usage/records.csv',
    ]) {
      const refused = await get(stranger, url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json<{ error: { code: string; message: string } }>().error).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringContaining('may not read usage in namespace "team-u"') as string,
      });
    }
    const own = await get(stranger, 'team-v/usage/records');
    expect(own.json<{ records: { requestId: string }[] }>().records).toHaveLength(1);
  });
});
