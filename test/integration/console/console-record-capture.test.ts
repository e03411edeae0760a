/**
 * One record's page on the console API, against the local control plane (RBAC on) and a ledger
 * (PGlite) holding a record and its capture: the record to anyone allowed the key's usage, the
 * captured bodies only to users allowed `get apikeys/captures` (the capture reader, the admin),
 * 403 in the console's shape to viewers and key managers, 404 when nothing was captured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import { insertCapturedCalls } from '../../../ledger/insert-captured-calls.js';
import { insertUsageRecords } from '../../../ledger/insert-usage-records.js';
import type { LedgerDatabase } from '../../../ledger/ledger-database.js';
import { openLedgerDatabase } from '../../../ledger/open-ledger-database.js';
import { makeCapturedCall } from '../../support/ledger/make-captured-call.js';
import { makeRecord } from '../../support/ledger/make-record.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import {
  bindPlatformAdmins,
  bindRole,
  buildConsole,
  call,
  signIn,
  writeUsersSecret,
  type Signed,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const NOW = Date.UTC(2026, 2, 20, 15);
const DAY = 86_400_000;

const users = [
  { username: 'kim', password: 'kim-password-1234', groups: ['team-c-managers'] },
  { username: 'vera', password: 'vera-password-123', groups: ['team-c-viewers'] },
  {
    username: 'otto',
    password: 'otto-password-123',
    groups: ['team-c-viewers', 'team-c-auditors'],
  },
  { username: 'root', password: 'root-password-12', groups: ['platform'] },
];

let plane: Plane;
let app: ConsoleApp;
let folder: string;
let ledger: LedgerDatabase;
let manager: Signed;
let viewer: Signed;
let auditor: Signed;
let admin: Signed;

beforeAll(async () => {
  plane = await startPlane();
  await plane.ok(['create', 'namespace', 'team-c']);
  const inTeamC = (group: string) => ['--group', group, '-n', 'team-c'];
  await bindRole(plane, 'c-managers', 'tollgate-key-manager', inTeamC('team-c-managers'));
  await bindRole(plane, 'c-viewers', 'tollgate-viewer', inTeamC('team-c-viewers'));
  await bindRole(plane, 'c-auditors', 'tollgate-capture-reader', inTeamC('team-c-auditors'));
  await bindPlatformAdmins(plane);
  await writeUsersSecret(plane, users);
  folder = mkdtempSync(join(tmpdir(), 'tollgate-console-capture-'));
  ledger = await openLedgerDatabase({ dataDir: folder });
  app = buildConsole(plane, { parts: { ledger, now: () => NOW } });
  const [kim, vera, otto, root] = users.map((user) => signIn(app, user));
  [manager, viewer, auditor, admin] = await Promise.all([kim!, vera!, otto!, root!]);
  const created = await call(app, manager, {
    method: 'POST',
    url: '/api/v1/accounts/team-c/keys',
    payload: { name: 'agent', displayName: 'Agent key' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const keyUid = created.json<{ key: { uid: string } }>().key.uid;
  const mine = { namespace: 'team-c', keyUid, keyName: 'agent' };
  await insertUsageRecords(ledger, [
    makeRecord({ requestId: 'req-captured', time: NOW - 60_000, ...mine }),
    makeRecord({ requestId: 'req-plain', time: NOW - 120_000, ...mine }),
  ]);
  await insertCapturedCalls(ledger, {
    calls: [
      makeCapturedCall({
        requestId: 'req-captured',
        at: NOW - 60_000,
        expiresAt: NOW + 7 * DAY,
        ...mine,
      }),
    ],
    now: NOW,
  });
});

afterAll(async () => {
  await app.close();
  await ledger.close();
  rmSync(folder, { recursive: true, force: true });
  await plane.stop();
});

const get = (signed: Signed, path: string) =>
  call(app, signed, { method: 'GET', url: `/api/v1/accounts/team-c/keys/agent/records/${path}` });

describe("a record's page", () => {
  it('shows the record to a viewer', async () => {
    const answer = await get(viewer, 'req-captured');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      requestId: 'req-captured',
      keyName: 'agent',
      status: 200,
    });
    expect(answer.body).not.toContain('REDACTED');
    const missing = await get(viewer, 'req-nothing');
    expect([missing.statusCode, missing.json<{ error: { code: string } }>().error.code]).toEqual([
      404,
      'NOT_FOUND',
    ]);
  });

  it('shows the captured bodies to the capture reader and the admin', async () => {
    for (const signed of [auditor, admin]) {
      const answer = await get(signed, 'req-captured/capture');
      expect(answer.statusCode, answer.body).toBe(200);
      const body = answer.json<{
        request: { text: string; redactions: unknown[] };
        response: { text: string };
        expiresAt: string;
      }>();
      expect(body.request.text).toContain('[REDACTED:anthropic-key]');
      expect(body.request.redactions).toEqual([{ kind: 'anthropic-key', count: 1 }]);
      expect(body.response.text).toContain('hello');
      expect(body.expiresAt).toBe(new Date(NOW + 7 * DAY).toISOString());
    }
  });

  it('refuses the captured bodies to viewers and key managers with 403 in the console shape', async () => {
    for (const [signed, username] of [
      [viewer, 'vera'],
      [manager, 'kim'],
    ] as const) {
      const answer = await get(signed, 'req-captured/capture');
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({
        error: {
          code: 'FORBIDDEN',
          message: `User "${username}" may not see captured bodies of key "agent" in namespace "team-c" (needs get on apikeys/captures there).`,
        },
      });
    }
  });

  it('audits every read of captured bodies and every refusal, without a body', async () => {
    const events = await plane.ok(['get', 'events', '-n', 'team-c', '-o', 'json']);
    expect(events).toContain(
      'otto read-capture ApiKey team-c/agent (request req-captured) through the console: succeeded',
    );
    expect(events).toContain(
      'root read-capture ApiKey team-c/agent (request req-captured) through the console: succeeded',
    );
    expect(events).toContain(
      'vera read-capture ApiKey team-c/agent (request req-captured) through the console: failed: FORBIDDEN',
    );
    expect(events).toContain('ConsoleReadCaptureFailed');
    expect(events).not.toContain('REDACTED');
  });

  it('answers 404 for a record that was not captured, and 400 for a malformed request id', async () => {
    const plain = await get(auditor, 'req-plain/capture');
    expect([plain.statusCode, plain.json<{ error: { code: string } }>().error.code]).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const malformed = await get(auditor, 'req%20captured/capture');
    expect([
      malformed.statusCode,
      malformed.json<{ error: { field: string } }>().error.field,
    ]).toEqual([400, 'requestId']);
  });

  it('describes both routes in the OpenAPI document', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const paths = Object.keys(answer.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/accounts/{namespace}/keys/{name}/records/{requestId}',
        '/api/v1/accounts/{namespace}/keys/{name}/records/{requestId}/capture',
      ]),
    );
  });
});
