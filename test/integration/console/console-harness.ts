/**
 * Test support: the console server against a real local control plane (RBAC on), local users in
 * the users Secret, and sign-in helpers over app.inject (no socket; the Kubernetes calls are real).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { build, type ConsoleApp, type ConsoleParts } from '../../../console/server/app.js';
import { hashPassword } from '../../../console/server/auth/hash-password.js';
import {
  parseConsoleConfigObject,
  type ConsoleConfigInput,
} from '../../../console/server/console-config.js';
import { startPlane, type Plane } from '../control-plane/control-plane-harness.js';

export interface TestUser {
  username: string;
  password: string;
  groups: string[];
}

export async function writeUsersSecret(plane: Plane, users: readonly TestUser[]): Promise<void> {
  const list = [];
  for (const user of users) {
    list.push({
      username: user.username,
      passwordHash: await hashPassword(user.password),
      groups: user.groups,
    });
  }
  await plane.kubectl(['create', 'namespace', 'tollgate-system']);
  await plane.kubectl(['delete', 'secret', 'tollgate-console-users', '-n', 'tollgate-system']);
  await plane.ok([
    'create',
    'secret',
    'generic',
    'tollgate-console-users',
    '-n',
    'tollgate-system',
    `--from-literal=users.json=${JSON.stringify(list)}`,
  ]);
}

export function buildConsole(
  plane: Plane,
  options: { config?: Partial<ConsoleConfigInput>; parts?: ConsoleParts } = {},
): ConsoleApp {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(plane.local.kubeconfigPath);
  const config = parseConsoleConfigObject({ logLevel: 'silent', ...options.config });
  return build(config, { kubeConfig, ...options.parts });
}

/** The fields the tests read from console API answers. */
export interface ApiBody {
  error: { code: string; message: string; field?: string };
  value: string;
  key: Record<string, unknown>;
  state: string;
  items: { name: string; namespace: string }[];
  csrfToken: string;
}

export interface Signed {
  cookie: string;
  csrf: string;
}

export async function signIn(app: ConsoleApp, user: { username: string; password: string }) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/session',
    payload: { username: user.username, password: user.password },
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-in of ${user.username} failed: ${response.statusCode} ${response.body}`);
  }
  const setCookie = String(response.headers['set-cookie']);
  const cookie = setCookie.split(';')[0] ?? '';
  return { cookie, csrf: response.json<{ csrfToken: string }>().csrfToken, setCookie };
}

export function call(
  app: ConsoleApp,
  signed: Signed,
  request: {
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    url: string;
    payload?: unknown;
    headers?: Record<string, string>;
  },
) {
  return app.inject({
    method: request.method,
    url: request.url,
    headers: {
      cookie: signed.cookie,
      ...(request.method === 'GET' ? {} : { 'x-csrf-token': signed.csrf }),
      ...request.headers,
    },
    ...(request.payload === undefined ? {} : { payload: request.payload as object }),
  });
}

/** Binds a ClusterRole in a namespace; `flags` name the subject and `-n` the namespace. */
export function bindRole(plane: Plane, name: string, role: string, flags: readonly string[]) {
  return plane.ok(['create', 'rolebinding', name, '--clusterrole', role, ...flags]);
}

/** A plane with the namespace team-a, whose keys the group team-a-managers manages. */
export async function startTeamAPlane(): Promise<Plane> {
  const plane = await startPlane();
  await plane.ok(['create', 'namespace', 'team-a']);
  await bindRole(plane, 'a-managers', 'tollgate-key-manager', [
    '--group',
    'team-a-managers',
    '-n',
    'team-a',
  ]);
  return plane;
}

/** Makes the group `platform` administrators: tollgate-admin over the whole cluster. */
export function bindPlatformAdmins(plane: Plane) {
  return plane.ok([
    'create',
    'clusterrolebinding',
    'platform-admins',
    '--clusterrole',
    'tollgate-admin',
    '--group',
    'platform',
  ]);
}

/** Lets the group `platform` write upstream credential Secrets (tollgate-system must exist). */
export function bindUpstreamCredentials(plane: Plane) {
  return bindRole(plane, 'platform-credentials', 'tollgate-upstream-credentials', [
    '--group',
    'platform',
    '-n',
    'tollgate-system',
  ]);
}

/**
 * The plane of the `tollgate console` command tests: namespaces team-k and team-other, the group
 * team-k-managers managing keys in team-k, and `user` in the users Secret.
 */
export async function prepareTeamK(plane: Plane, user: TestUser): Promise<void> {
  for (const namespace of ['team-k', 'team-other']) {
    await plane.ok(['create', 'namespace', namespace]);
  }
  await bindRole(plane, 'k-managers', 'tollgate-key-manager', [
    '--group',
    'team-k-managers',
    '-n',
    'team-k',
  ]);
  await writeUsersSecret(plane, [user]);
}
