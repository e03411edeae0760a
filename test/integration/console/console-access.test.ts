/**
 * What the console tells the web app a user may do (`GET /me/access`, SelfSubjectAccessReview as
 * the user against the local control plane with RBAC on), and the admin routes' plain-word
 * refusals, write-only Google OAuth credentials and version checks.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import type { Plane } from '../control-plane/control-plane-harness.js';
import {
  bindPlatformAdmins,
  bindRole,
  bindUpstreamCredentials,
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
  { username: 'val', password: 'val-password-123', groups: [] },
  { username: 'ada', password: 'ada-password-123', groups: ['platform'] },
];

let plane: Plane;
let app: ConsoleApp;
let manager: Signed;
let viewer: Signed;
let admin: Signed;

interface AccessBody {
  administer: boolean;
  groups: Record<string, boolean>;
  upstreams: Record<string, boolean>;
  accounts: Record<string, boolean>;
  keys: Record<string, boolean> | null;
  namespace: string | null;
}

beforeAll(async () => {
  plane = await startTeamAPlane();
  await bindRole(plane, 'val-view', 'tollgate-viewer', ['--user', 'val', '-n', 'team-a']);
  await plane.ok([
    'create',
    'clusterrolebinding',
    'a-groups',
    '--clusterrole',
    'tollgate-group-reader',
    '--group',
    'team-a-managers',
  ]);
  await bindPlatformAdmins(plane);
  await writeUsersSecret(plane, users);
  await bindUpstreamCredentials(plane);
  app = buildConsole(plane);
  manager = await signIn(app, users[0]!);
  viewer = await signIn(app, users[1]!);
  admin = await signIn(app, users[2]!);
});

afterAll(async () => {
  await app.close();
  await plane.stop();
});

async function access(signed: Signed, namespace?: string): Promise<AccessBody> {
  const url = `/api/v1/me/access${namespace === undefined ? '' : `?namespace=${namespace}`}`;
  const response = await call(app, signed, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AccessBody>();
}

const none = { list: false, create: false, update: false, delete: false };
const all = { list: true, create: true, update: true, delete: true };

describe('GET /me/access', () => {
  it('tells a viewer it may list keys and change nothing', async () => {
    expect(await access(viewer, 'team-a')).toEqual({
      administer: false,
      groups: none,
      upstreams: none,
      plans: none,
      accounts: none,
      keys: { ...none, list: true },
      namespace: 'team-a',
    });
  });

  it('tells a key manager it may change keys in its namespace only, and read Groups', async () => {
    const inTeam = await access(manager, 'team-a');
    expect(inTeam.keys).toEqual(all);
    expect(inTeam.groups).toEqual({ ...none, list: true });
    expect(inTeam.administer).toBe(false);
    expect((await access(manager, 'default')).keys).toEqual(none);
    expect((await access(manager)).keys).toBeNull();
  });

  it('tells an admin it may administer', async () => {
    const answer = await access(admin);
    expect(answer).toMatchObject({
      administer: true,
      groups: all,
      upstreams: all,
      plans: all,
      accounts: all,
    });
  });

  it('refuses a namespace that is not a name, and a caller without a session', async () => {
    const bad = await call(app, admin, { method: 'GET', url: '/api/v1/me/access?namespace=A_B' });
    expect(bad.statusCode).toBe(400);
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/me/access' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('admin refusals and credentials', () => {
  it('names the field of a refused spec in plain words, and writes nothing', async () => {
    const refused = await call(app, admin, {
      method: 'POST',
      url: '/api/v1/admin/groups',
      payload: { name: 'cheap', spec: { platform: 'Anthropic', rateMultiplier: '0' } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiBody>().error).toEqual({
      code: 'INVALID_INPUT',
      field: 'spec.rateMultiplier',
      message:
        'spec.rateMultiplier must be a number greater than 0 such as 1 or 0.5 (at most 6 decimals).',
    });
    const badUrl = await call(app, admin, {
      method: 'POST',
      url: '/api/v1/admin/upstreams',
      payload: {
        name: 'bad-url',
        spec: { platform: 'OpenAI', baseURL: 'api.openai.com' },
        apiKeyValue: 'provider-key-value-1',
      },
    });
    expect(badUrl.json<ApiBody>().error).toMatchObject({
      field: 'spec.baseURL',
      message: 'spec.baseURL must be a URL starting with http:// or https://.',
    });
    // The spec is checked before the credential is written.
    const secret = await plane.kubectl([
      'get',
      'secret',
      'tollgate-upstream-bad-url',
      '-n',
      'tollgate-system',
    ]);
    expect(secret.code).not.toBe(0);
    const missing = await call(app, admin, {
      method: 'POST',
      url: '/api/v1/admin/upstreams',
      payload: { name: 'no-credential', spec: { platform: 'OpenAI', baseURL: 'https://x.test' } },
    });
    expect(missing.json<ApiBody>().error).toMatchObject({
      field: 'spec.credentials',
      message: 'spec.credentials is required.',
    });
  });

  it('writes Google OAuth values to the Secret and never returns them', async () => {
    const created = await call(app, admin, {
      method: 'POST',
      url: '/api/v1/admin/upstreams',
      payload: {
        name: 'ag-main',
        spec: {
          platform: 'Antigravity',
          baseURL: 'https://ag.test',
          credentials: {
            type: 'GoogleOAuth',
            googleOAuth: {
              clientID: 'client-1',
              tokenURL: 'https://oauth.test/token',
              projectID: 'project-1',
            },
          },
        },
        googleOAuthSecret: { refreshToken: 'refresh-value-1', clientSecret: 'client-secret-1' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain('refresh-value-1');
    expect(created.json<{ spec: unknown }>().spec).toMatchObject({
      credentials: { googleOAuth: { secretRef: { name: 'tollgate-upstream-ag-main' } } },
    });
    const data = await plane.ok([
      'get',
      'secret',
      'tollgate-upstream-ag-main',
      '-n',
      'tollgate-system',
      '-o',
      'jsonpath={.data.refreshToken}',
    ]);
    expect(Buffer.from(data, 'base64').toString('utf8')).toBe('refresh-value-1');
  });

  it('refuses an edit sent with a version that changed meanwhile', async () => {
    const created = await call(app, admin, {
      method: 'POST',
      url: '/api/v1/admin/groups',
      payload: { name: 'versioned', spec: { platform: 'OpenAI' } },
    });
    const version = created.json<{ resourceVersion: string }>().resourceVersion;
    const first = await call(app, admin, {
      method: 'PUT',
      url: '/api/v1/admin/groups/versioned',
      payload: { spec: { platform: 'OpenAI', description: 'first' }, resourceVersion: version },
    });
    expect(first.statusCode, first.body).toBe(200);
    const stale = await call(app, admin, {
      method: 'PUT',
      url: '/api/v1/admin/groups/versioned',
      payload: { spec: { platform: 'OpenAI', description: 'second' }, resourceVersion: version },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ApiBody>().error.code).toBe('CONFLICT');
  });
});
