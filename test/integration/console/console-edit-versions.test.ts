/**
 * Edits carry the generation they were made from: a status write in between (the operator's,
 * which bumps the resourceVersion but not the generation) does not refuse them; a spec change in
 * between does, with 409 CONFLICT in plain words. For keys, and for Groups and Accounts in the
 * administration routes. Against the local control plane with RBAC on.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import type { Plane } from '../control-plane/control-plane-harness.js';
import {
  bindPlatformAdmins,
  buildConsole,
  call,
  signIn,
  writeUsersSecret,
  type ApiBody,
  type Signed,
  startTeamAPlane,
} from './console-harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const users = [
  { username: 'kim', password: 'kim-password-123', groups: ['team-a-managers'] },
  { username: 'ada', password: 'ada-password-123', groups: ['platform'] },
];

let plane: Plane;
let app: ConsoleApp;
let manager: Signed;
let admin: Signed;

interface Versioned {
  resourceVersion: string;
  generation: number;
}

beforeAll(async () => {
  plane = await startTeamAPlane();
  await bindPlatformAdmins(plane);
  await writeUsersSecret(plane, users);
  app = buildConsole(plane);
  manager = await signIn(app, users[0]!);
  admin = await signIn(app, users[1]!);
});

afterAll(async () => {
  await app.close();
  await plane.stop();
});

/** What the operator does: a write to the status subresource (kubectl as the cluster admin). */
async function writeStatus(
  kind: string,
  name: string,
  namespace: string | undefined,
  status: object,
) {
  await plane.ok([
    'patch',
    kind,
    name,
    ...(namespace === undefined ? [] : ['-n', namespace]),
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}

describe('key edits', () => {
  const url = '/api/v1/accounts/team-a/keys/versioned';

  it('saves an edit whose key got a status write after it was read', async () => {
    const created = await call(app, manager, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { name: 'versioned', displayName: 'Versioned', limits: { quotaUSD: '10' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const read = (await call(app, manager, { method: 'GET', url })).json<Versioned>();
    expect(read.generation).toBeGreaterThan(0);
    await writeStatus('apikey', 'versioned', 'team-a', { keyHint: 'sk-tg-…abcd' });
    const now = (await call(app, manager, { method: 'GET', url })).json<Versioned>();
    expect(now.resourceVersion).not.toBe(read.resourceVersion);
    expect(now.generation).toBe(read.generation);

    const saved = await call(app, manager, {
      method: 'PATCH',
      url,
      payload: { limits: { quotaUSD: '12' }, generation: read.generation },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ limits: { quotaUSD: string } }>().limits.quotaUSD).toBe('12');
    expect(saved.json<Versioned>().generation).toBe(read.generation + 1);
  });

  it('refuses an edit made before another change of the settings, in plain words', async () => {
    const read = (await call(app, manager, { method: 'GET', url })).json<Versioned>();
    // Someone else changes the key's settings in between.
    const other = await call(app, manager, {
      method: 'PATCH',
      url,
      payload: { limits: { dailyUSD: '3' }, generation: read.generation },
    });
    expect(other.statusCode, other.body).toBe(200);
    const stale = await call(app, manager, {
      method: 'PATCH',
      url,
      payload: { limits: { quotaUSD: '99' }, generation: read.generation },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ApiBody>().error).toMatchObject({
      code: 'CONFLICT',
      message:
        'The key "versioned" was changed since this form was opened: reload it, then edit again.',
    });
    const kept = await plane.ok([
      'get',
      'apikey',
      'versioned',
      '-n',
      'team-a',
      '-o',
      'jsonpath={.spec.limits.quotaUSD}',
    ]);
    expect(kept).toBe('12');
  });
});

describe('administration edits', () => {
  it('saves a Group edit after a status write, refuses one after another spec change', async () => {
    const created = await call(app, admin, {
      method: 'POST',
      url: '/api/v1/admin/groups',
      payload: { name: 'edited', spec: { platform: 'OpenAI' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const read = created.json<Versioned>();
    await writeStatus('group', 'edited', undefined, { observedGeneration: read.generation });
    const saved = await call(app, admin, {
      method: 'PUT',
      url: '/api/v1/admin/groups/edited',
      payload: { spec: { platform: 'OpenAI', description: 'first' }, generation: read.generation },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const stale = await call(app, admin, {
      method: 'PUT',
      url: '/api/v1/admin/groups/edited',
      payload: { spec: { platform: 'OpenAI', description: 'second' }, generation: read.generation },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ApiBody>().error.message).toBe(
      'The Group "edited" was changed since this form was opened: reload it, then edit again.',
    );
  });

  it("saves an Account edit after the operator wrote the Account's status", async () => {
    const created = await call(app, admin, {
      method: 'PUT',
      url: '/api/v1/admin/accounts/team-a',
      payload: { spec: { creditUSD: '100' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const read = created.json<Versioned>();
    await writeStatus('account', 'default', 'team-a', { observedGeneration: read.generation });
    const saved = await call(app, admin, {
      method: 'PUT',
      url: '/api/v1/admin/accounts/team-a',
      payload: { spec: { creditUSD: '150' }, generation: read.generation },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const stale = await call(app, admin, {
      method: 'PUT',
      url: '/api/v1/admin/accounts/team-a',
      payload: { spec: { creditUSD: '200' }, generation: read.generation },
    });
    expect(stale.statusCode).toBe(409);
  });
});
