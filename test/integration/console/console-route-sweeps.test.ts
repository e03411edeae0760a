/**
 * Sweeps over the console's whole route table (`app.consoleRoutes`, the table the OpenAPI
 * document is built from, so a new route is swept too), against the local control plane with RBAC
 * on and a ledger holding usage of the swept key:
 * - a key manager of team-b reaching team-a through any route, with the namespace plain or
 *   percent-encoded (hyphen, every letter, an encoded slash and `..`), is refused 403 (the
 *   administrators' account routes refuse a name that is no namespace name with 400 first);
 * - every state-changing route refuses a call without the CSRF token, with another session's
 *   token, from a foreign Origin or a cross-site fetch with 403 `CSRF_REJECTED`, and nothing
 *   changes;
 * - no answer of any readable route, to the administrator or the key's manager, carries a key
 *   value (or an upstream credential) once the call that created it has answered.
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
  bindUpstreamCredentials,
  buildConsole,
  call,
  signIn,
  writeUsersSecret,
  type Signed,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const users = [
  { username: 'alice', password: 'alice-password-1', groups: ['team-a-managers'] },
  { username: 'bob', password: 'bob-password-123', groups: ['team-b-managers'] },
  { username: 'root', password: 'root-password-12', groups: ['platform'] },
];

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface Route {
  method: Method;
  path: string;
  public?: boolean;
}

let plane: Plane;
let app: ConsoleApp;
let folder: string;
let ledger: LedgerDatabase;
let alice: Signed;
let bob: Signed;
let root: Signed;
/** Every secret value the console answered once: key values and the upstream credential. */
const secrets: string[] = ['upstream-credential-value-0123456789'];
let teamAKeyUid = '';

beforeAll(async () => {
  plane = await startPlane();
  for (const namespace of ['team-a', 'team-b']) await plane.ok(['create', 'namespace', namespace]);
  await bindRole(plane, 'a-managers', 'tollgate-key-manager', [
    '--group',
    'team-a-managers',
    '-n',
    'team-a',
  ]);
  await bindRole(plane, 'b-managers', 'tollgate-key-manager', [
    '--group',
    'team-b-managers',
    '-n',
    'team-b',
  ]);
  await bindPlatformAdmins(plane);
  await writeUsersSecret(plane, users);
  await bindUpstreamCredentials(plane);
  folder = mkdtempSync(join(tmpdir(), 'tollgate-console-sweeps-'));
  ledger = await openLedgerDatabase({ dataDir: folder });
  app = buildConsole(plane, {
    config: { gatewayUrl: 'https://gateway.example.test' },
    parts: { ledger },
  });
  alice = await signIn(app, users[0]!);
  bob = await signIn(app, users[1]!);
  root = await signIn(app, users[2]!);

  const upstream = await call(app, root, {
    method: 'POST',
    url: '/api/v1/admin/upstreams',
    payload: {
      name: 'anthropic-main',
      spec: { platform: 'Anthropic', baseURL: 'https://api.anthropic.com' },
      apiKeyValue: secrets[0],
    },
  });
  expect(upstream.statusCode, upstream.body).toBe(201);
  const group = await call(app, root, {
    method: 'POST',
    url: '/api/v1/admin/groups',
    payload: {
      name: 'anthropic',
      spec: { platform: 'Anthropic', upstreams: [{ name: 'anthropic-main' }] },
    },
  });
  expect(group.statusCode, group.body).toBe(201);
  const account = await call(app, root, {
    method: 'PUT',
    url: '/api/v1/admin/accounts/team-a',
    payload: { spec: { displayName: 'Team A', creditUSD: '10' } },
  });
  expect(account.statusCode, account.body).toBeLessThan(300);
  const created = await call(app, alice, {
    method: 'POST',
    url: '/api/v1/accounts/team-a/keys',
    payload: { name: 'k1', displayName: 'Key one', groupName: 'anthropic' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json<{ value: string; key: { uid: string } }>();
  secrets.push(body.value);
  teamAKeyUid = body.key.uid;
  const rotated = await call(app, alice, {
    method: 'POST',
    url: '/api/v1/accounts/team-a/keys/k1/rotate',
  });
  expect(rotated.statusCode, rotated.body).toBe(200);
  secrets.push(rotated.json<{ value: string }>().value);
  const chosen = await call(app, bob, {
    method: 'POST',
    url: '/api/v1/accounts/team-b/keys',
    payload: { name: 'kb', displayName: 'Key of b', value: 'chosen-value-of-team-b-0123' },
  });
  expect(chosen.statusCode, chosen.body).toBe(201);
  secrets.push('chosen-value-of-team-b-0123');
  await insertUsageRecords(
    ledger,
    [
      makeRecord({ requestId: 'a-1', time: Date.now() - 60_000, namespace: 'team-a' }),
      makeRecord({ requestId: 'a-2', time: Date.now() - 120_000, namespace: 'team-a' }),
    ].map((record) => ({ ...record, keyUid: teamAKeyUid, keyName: 'k1' })),
  );
  await insertCapturedCalls(ledger, {
    calls: [
      makeCapturedCall({
        requestId: 'a-1',
        namespace: 'team-a',
        keyUid: teamAKeyUid,
        keyName: 'k1',
        at: Date.now() - 60_000,
        expiresAt: Date.now() + 86_400_000,
      }),
    ],
    now: Date.now(),
  });
});

afterAll(async () => {
  await app.close();
  await ledger.close();
  rmSync(folder, { recursive: true, force: true });
  await plane.stop();
});

const routes = (): Route[] => app.consoleRoutes.filter((route) => route.public !== true);

/** The URL of a route with its parameters filled in. */
function urlOf(route: Route, parameters: { namespace: string; name: string }): string {
  return `/api/v1${route.path}`
    .replace('{namespace}', parameters.namespace)
    .replace('{name}', parameters.name)
    .replace('{requestId}', 'a-1');
}

/** A body the route accepts, so that only authorization or the CSRF check can refuse it. */
function payloadOf(route: Route): object | undefined {
  if (route.method === 'GET' || route.method === 'DELETE') return undefined;
  if (route.path === '/accounts/{namespace}/keys') return { displayName: 'intruder' };
  if (route.path === '/accounts/{namespace}/keys/{name}') return { displayName: 'renamed' };
  if (route.path === '/admin/accounts/{namespace}') return { spec: { displayName: 'taken' } };
  if (route.path.endsWith('notifiers') || route.path.endsWith('notifiers/{name}')) {
    const spec = {
      webhook: { url: 'https://hooks.example.com/x' },
      events: { keyExpiring: { withinDays: 3 } },
    };
    return route.method === 'POST'
      ? { name: 'intruder', spec, secretValue: 'signing-secret' }
      : { spec, secretValue: 'signing-secret' };
  }
  if (route.path.startsWith('/admin/groups')) {
    return {
      name: 'intruder',
      spec: { platform: 'Anthropic', upstreams: [{ name: 'anthropic-main' }] },
    };
  }
  if (route.path.startsWith('/admin/upstreams')) {
    return { name: 'intruder', spec: { platform: 'Anthropic', baseURL: 'https://x.example' } };
  }
  return {};
}

const ENCODED_TEAM_A = [
  'team-a',
  'team%2Da',
  'team%2da',
  '%74%65%61%6D%2D%61',
  'team-b%2F..%2Fteam-a',
  '..%2Fteam-a',
  'team-a%2F',
];

describe('another namespace, plainly or encoded', () => {
  it('refuses every team-a route to a key manager of team-b with 403', async () => {
    const reached: string[] = [];
    const swept = routes().filter((route) => route.path.includes('{namespace}'));
    expect(swept.length).toBeGreaterThan(15);
    for (const route of swept) {
      for (const namespace of ENCODED_TEAM_A) {
        const url = urlOf(route, { namespace, name: 'k1' });
        const payload = payloadOf(route);
        const answer = await call(app, bob, {
          method: route.method,
          url,
          ...(payload === undefined ? {} : { payload }),
        });
        const error = answer.json<{ error?: { code?: string; field?: string } }>().error;
        const refused =
          (answer.statusCode === 403 && error?.code === 'FORBIDDEN') ||
          (route.path.startsWith('/admin/') &&
            answer.statusCode === 400 &&
            error?.code === 'INVALID_INPUT' &&
            error.field === 'namespace' &&
            /%2F/i.test(namespace));
        if (!refused) {
          reached.push(`${route.method} ${url}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
        }
      }
    }
    expect(reached).toEqual([]);
    // Nothing of team-a changed: its key is still there, unrenamed, and no key was added.
    const keys = await call(app, alice, { method: 'GET', url: '/api/v1/accounts/team-a/keys' });
    const items = keys.json<{ items: { name: string; displayName: string; state: string }[] }>();
    expect(items.items).toEqual([
      expect.objectContaining({ name: 'k1', displayName: 'Key one', state: 'enabled' }),
    ]);
  });
});

describe('state-changing calls without a valid CSRF token or from another site', () => {
  const attempts: { name: string; signed: () => Signed; headers: Record<string, string> }[] = [
    { name: 'no token', signed: () => ({ ...root, csrf: '' }), headers: {} },
    { name: "another session's token", signed: () => ({ ...root, csrf: alice.csrf }), headers: {} },
    {
      name: 'a foreign Origin',
      signed: () => root,
      headers: { origin: 'https://evil.example' },
    },
    { name: 'a cross-site fetch', signed: () => root, headers: { 'sec-fetch-site': 'cross-site' } },
  ];

  it.each(attempts)('refuses every state-changing route with $name', async (attempt) => {
    const accepted: string[] = [];
    const swept = routes().filter((route) => route.method !== 'GET');
    expect(swept.length).toBeGreaterThan(15);
    for (const route of swept) {
      const url = urlOf(route, {
        namespace: 'team-a',
        name: route.path.startsWith('/admin/groups') ? 'anthropic' : 'k1',
      });
      const payload = payloadOf(route);
      const signed = attempt.signed();
      const answer = await app.inject({
        method: route.method,
        url,
        headers: {
          cookie: signed.cookie,
          ...(signed.csrf === '' ? {} : { 'x-csrf-token': signed.csrf }),
          ...attempt.headers,
        },
        ...(payload === undefined ? {} : { payload }),
      });
      const error = answer.json<{ error?: { code?: string } }>().error;
      if (answer.statusCode !== 403 || error?.code !== 'CSRF_REJECTED') {
        accepted.push(`${route.method} ${url}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(accepted).toEqual([]);
    // The refused calls changed nothing: the session, the key, the group and the account stand.
    const me = await call(app, root, { method: 'GET', url: '/api/v1/me' });
    expect(me.statusCode).toBe(200);
    const key = await call(app, root, { method: 'GET', url: '/api/v1/accounts/team-a/keys/k1' });
    expect(key.json<{ displayName: string; state: string }>()).toMatchObject({
      displayName: 'Key one',
      state: 'enabled',
    });
    const group = await call(app, root, { method: 'GET', url: '/api/v1/admin/groups/anthropic' });
    expect(group.statusCode).toBe(200);
    const accounts = await call(app, root, { method: 'GET', url: '/api/v1/admin/accounts' });
    expect(accounts.body).toContain('Team A');
  });
});

describe('key values after creation', () => {
  it('are in no answer of any readable route, to the administrator or the manager', async () => {
    expect(secrets).toHaveLength(4);
    const leaks: string[] = [];
    const answered: string[] = [];
    const readable = routes().filter((route) => route.method === 'GET');
    const plan = await call(app, root, {
      method: 'POST',
      url: '/api/v1/admin/plans',
      payload: { name: 'starter', spec: { displayName: 'Starter', limits: { dailyUSD: '5' } } },
    });
    expect(plan.statusCode).toBe(201);
    // A notifier of each kind, with the Secret values the console writes (and must never return).
    const events = { keyExpiring: { withinDays: 3 } };
    const notifiers = [
      {
        signed: alice,
        url: '/api/v1/accounts/team-a/notifiers',
        secretValue: 'notifier-signing-secret-0123456789',
        spec: { webhook: { url: 'https://hooks.example.com/t' }, events },
      },
      {
        signed: root,
        url: '/api/v1/admin/clusternotifiers',
        secretValue: 'https://hooks.slack.example/services/T0/B0/secret-0123456789',
        spec: { slack: {}, events },
      },
    ];
    for (const notifier of notifiers) {
      const created = await call(app, notifier.signed, {
        method: 'POST',
        url: notifier.url,
        payload: { name: 'alerts', spec: notifier.spec, secretValue: notifier.secretValue },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.body).not.toContain(notifier.secretValue);
      secrets.push(notifier.secretValue);
    }
    for (const signed of [root, alice]) {
      for (const route of readable) {
        const name = route.path.startsWith('/admin/groups')
          ? 'anthropic'
          : route.path.startsWith('/admin/upstreams')
            ? 'anthropic-main'
            : route.path.startsWith('/admin/plans')
              ? 'starter'
              : route.path.includes('notifiers')
                ? 'alerts'
                : 'k1';
        const url = urlOf(route, { namespace: 'team-a', name });
        const answer = await call(app, signed, { method: 'GET', url });
        if (answer.statusCode === 200) answered.push(route.path);
        for (const value of secrets) {
          const forms = [value, Buffer.from(value).toString('base64')];
          if (forms.some((form) => answer.body.includes(form))) {
            leaks.push(`${url} (${answer.statusCode}) carries a value`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    // The sweep read real answers: every readable route answered the administrator, and the
    // usage routes had the key's records to show.
    expect(new Set(answered)).toEqual(new Set(readable.map((route) => route.path)));
    const records = await call(app, alice, {
      method: 'GET',
      url: '/api/v1/accounts/team-a/usage/records.csv',
    });
    expect(records.body).toContain('a-1');
  });
});
