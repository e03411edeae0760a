/**
 * What the console's Account picker reads, against the local control plane with RBAC on: GET
 * /accounts says of each namespace the user may read keys in whether it has an Account (the
 * picker lists only those for most users), and GET /me/access says who may create Accounts (they
 * also see the others, with a link to create one).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import type { Plane } from '../control-plane/control-plane-harness.js';
import { startPlane } from '../control-plane/control-plane-harness.js';
import {
  bindPlatformAdmins,
  bindRole,
  buildConsole,
  call,
  signIn,
  writeUsersSecret,
  type Signed,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000 });

const users = [
  { username: 'kim', password: 'kim-password-123', groups: [] },
  { username: 'root', password: 'root-password-12', groups: ['platform'] },
];

interface Listed {
  namespace: string;
  displayName: string | null;
  hasAccount: boolean;
}

let plane: Plane;
let app: ConsoleApp;
let kim: Signed;
let root: Signed;

beforeAll(async () => {
  plane = await startPlane();
  for (const namespace of ['pick-a', 'pick-b', 'pick-c']) {
    await plane.ok(['create', 'namespace', namespace]);
  }
  for (const namespace of ['pick-a', 'pick-b']) {
    await bindRole(plane, 'kim-keys', 'tollgate-key-manager', ['--user', 'kim', '-n', namespace]);
  }
  await bindPlatformAdmins(plane);
  await writeUsersSecret(plane, users);
  app = buildConsole(plane);
  kim = await signIn(app, users[0]!);
  root = await signIn(app, users[1]!);
  const created = await call(app, root, {
    method: 'PUT',
    url: '/api/v1/admin/accounts/pick-a',
    payload: { spec: { creditUSD: '5', displayName: 'Pick A' } },
  });
  expect(created.statusCode, created.body).toBe(200);
});

afterAll(async () => {
  await app.close();
  await plane.stop();
});

async function listed(user: Signed): Promise<Listed[]> {
  const answer = await call(app, user, { method: 'GET', url: '/api/v1/accounts' });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer
    .json<{ items: Listed[] }>()
    .items.filter((item) => item.namespace.startsWith('pick-'))
    .map(({ namespace, displayName, hasAccount }) => ({ namespace, displayName, hasAccount }));
}

describe('the Account picker’s answers', () => {
  it('says which of the user’s namespaces have an Account', async () => {
    expect(await listed(kim)).toEqual([
      { namespace: 'pick-a', displayName: 'Pick A', hasAccount: true },
      { namespace: 'pick-b', displayName: null, hasAccount: false },
    ]);
    const access = await call(app, kim, { method: 'GET', url: '/api/v1/me/access' });
    expect(access.json<{ accounts: { create: boolean } }>().accounts.create).toBe(false);
  });

  it('lists every namespace to an administrator, who may create the missing Accounts', async () => {
    expect(await listed(root)).toEqual([
      { namespace: 'pick-a', displayName: 'Pick A', hasAccount: true },
      { namespace: 'pick-b', displayName: null, hasAccount: false },
      { namespace: 'pick-c', displayName: null, hasAccount: false },
    ]);
    const access = await call(app, root, { method: 'GET', url: '/api/v1/me/access' });
    expect(access.json<{ accounts: { create: boolean } }>().accounts.create).toBe(true);
    // Once created (the picker's link leads to this), the namespace moves to the first group.
    const created = await call(app, root, {
      method: 'PUT',
      url: '/api/v1/admin/accounts/pick-b',
      payload: { spec: {} },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await listed(kim)).map((item) => item.hasAccount)).toEqual([true, true]);
  });
});
