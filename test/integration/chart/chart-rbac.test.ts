/**
 * Least privilege, proven on the local control plane (RBAC enforced): the chart's rendered Roles,
 * ClusterRoles and bindings are applied with kubectl, and the operator and the console run as real
 * processes (`node bin/tollgate.js …`) with the identity of the chart's ServiceAccounts, through a
 * proxy that records every API request they make.
 * - The operator reconciles the examples/ world: every ApiKey Ready, a generated key Secret, status
 *   on every kind, a key deleted through its finalizer, the Lease taken and released.
 * - The console signs a person in (local users Secret), lists accounts and keys and creates a key,
 *   all as that person (impersonation); another namespace is refused by the person's RBAC.
 * Then, for each component: none of its own requests was refused; every single grant (one verb on
 * one resource) of its roles was used by a recorded request, except the ones listed with their
 * reason; and for each grant, with that grant alone removed from the role, the API server's
 * SubjectAccessReview refuses a request the component really made.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { stringify } from 'yaml';
import type { RequestAttributes } from '../../../control-plane/request-attributes.js';
import { startTollgateProcess } from '../build/run-tollgate-process.js';
import { writeUsersSecret } from '../console/console-harness.js';
import { apiRequest, startPlane, type Plane } from '../control-plane/control-plane-harness.js';
import { freePort } from '../../support/redis-server.js';
import {
  startApiRecorder,
  writeRecordedKubeconfig,
  type ApiRecorder,
} from './record-api-requests.js';
import { RELEASE, renderChart, type KubernetesObject } from './render-chart.js';
import { attributesOf, grantAllows, grantKey, grantsOf, type Grant } from './role-grants.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
type Component = 'operator' | 'console';

/** Grants a component holds without this scenario using them, and why. */
const JUSTIFIED: Record<Component, Record<string, string>> = {
  operator: {
    'update tollgate.dev/apikeys/finalizers cluster-wide (tollgate-operator)':
      'the OwnerReferencesPermissionEnforcement admission plugin (off in the local control ' +
      'plane) requires it to create key Secrets whose owner reference blocks owner deletion',
    'patch tollgate.dev/plans/status cluster-wide (tollgate-operator)':
      "writes a Plan's status (Ready, subscribedAccounts); the examples define no Plan",
    'patch tollgate.dev/clusternotifiers/status cluster-wide (tollgate-operator)':
      "writes a ClusterNotifier's status (Ready, delivery history); the examples define none",
  },
  console: {},
};

let plane: Plane;
let folder: string;
let rendered: KubernetesObject[];
const recorders: Partial<Record<Component, ApiRecorder>> = {};
const identities: Partial<Record<Component, { user: string; groups: string[] }>> = {};

function componentOf(object: KubernetesObject): string | undefined {
  return object.metadata.labels?.['app.kubernetes.io/component'];
}

/** The component's roles and the ServiceAccount its bindings name, from the rendered chart. */
function componentRbac(component: Component) {
  const objects = rendered.filter((object) => componentOf(object) === component);
  const roles = objects.filter((object) => object.kind === 'ClusterRole' || object.kind === 'Role');
  const bindings = objects.filter((object) => object.kind.endsWith('Binding'));
  const subjects = bindings.flatMap(
    (binding) => binding.subjects as { kind: string; name: string; namespace: string }[],
  );
  const accounts = new Set(subjects.map((subject) => `${subject.namespace}:${subject.name}`));
  expect([...accounts], `${component} bindings name one ServiceAccount`).toHaveLength(1);
  expect(subjects.every((subject) => subject.kind === 'ServiceAccount')).toBe(true);
  const [namespace = '', name = ''] = [...accounts][0]?.split(':') ?? [];
  const user = `system:serviceaccount:${namespace}:${name}`;
  const groups = ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
  return { roles, user, groups };
}

async function kubectlApply(objects: readonly unknown[]): Promise<void> {
  await plane.ok(['apply', '-f', '-'], objects.map((object) => stringify(object)).join('---\n'));
}

async function jsonOf<T>(args: readonly string[]): Promise<T> {
  return JSON.parse(await plane.ok([...args, '-o', 'json'])) as T;
}

async function waitUntil<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** SubjectAccessReview (as the admin) of one request's attributes for an identity. */
async function allowed(
  identity: { user: string; groups: string[] },
  attributes: RequestAttributes,
) {
  if (!attributes.resourceRequest) throw new Error('non-resource request');
  const answer = await apiRequest(plane.local, {
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: identity.user,
        groups: identity.groups,
        resourceAttributes: {
          verb: attributes.verb,
          group: attributes.apiGroup,
          resource: attributes.resource,
          subresource: attributes.subresource,
          namespace: attributes.namespace,
          name: attributes.name,
        },
      },
    },
  });
  return (answer.body.status as { allowed?: boolean } | undefined)?.allowed === true;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'tollgate-chart-rbac-'));
  plane = await startPlane();
  rendered = await renderChart('default');
  await kubectlApply(rendered.filter((object) => RBAC_KINDS.has(object.kind)));
  const lines: string[] = [];
  for (const component of ['operator', 'console'] as const) {
    const { user, groups } = componentRbac(component);
    identities[component] = { user, groups };
    const token = randomBytes(24).toString('hex');
    lines.push(`${token},${user},${component}-uid,"${groups.join(',')}"`);
    const recorder = await startApiRecorder(plane.local, plane.dataDirectory);
    recorders[component] = recorder;
    writeRecordedKubeconfig({
      folder,
      name: component,
      server: recorder.url,
      certificateAuthority: plane.local.certificateAuthority,
      token,
    });
  }
  writeFileSync(join(plane.dataDirectory, 'tokens.csv'), `${lines.join('\n')}\n`);
  writeFileSync(join(folder, 'pepper'), randomBytes(32));
  writeFileSync(join(folder, 'credential-key'), randomBytes(32).toString('base64'));
});

afterAll(async () => {
  for (const recorder of Object.values(recorders)) await recorder.close();
  await plane.stop();
  rmSync(folder, { recursive: true, force: true });
});

interface Conditions {
  status?: { conditions?: { type: string; status: string; reason: string }[] };
}

function condition(object: Conditions, type: string) {
  return object.status?.conditions?.find((each) => each.type === type);
}

describe('the operator under the chart ServiceAccount and roles', () => {
  it('reconciles the examples: keys Ready, a generated Secret, status, a finalized delete', async () => {
    const metricsPort = await freePort();
    const operator = startTollgateProcess({
      cwd: repository,
      lifetimeMs: 110_000,
      args: [
        'operator',
        '--kubeconfig',
        join(folder, 'operator.kubeconfig'),
        '--lease-duration-seconds',
        '3',
        '--renew-interval-seconds',
        '0.5',
        '--usage-refresh-seconds',
        '1',
      ],
      environment: {
        REDIS_URL: inject('redisUrl'),
        TOLLGATE_REDIS_PREFIX: `it-chart-rbac-${randomBytes(4).toString('hex')}:`,
        TOLLGATE_NAMESPACE: RELEASE.namespace,
        TOLLGATE_PEPPER_FILE: join(folder, 'pepper'),
        TOLLGATE_CREDENTIAL_KEY_FILE: join(folder, 'credential-key'),
        TOLLGATE_METRICS_HOST: '127.0.0.1',
        TOLLGATE_METRICS_PORT: String(metricsPort),
        TOLLGATE_LOG_LEVEL: 'warn',
      },
    });
    await operator.waitFor('leadership', async () => {
      const metrics = await request(`http://127.0.0.1:${metricsPort}/metrics`);
      return /^tollgate_operator_leader 1$/m.test(await metrics.body.text()) ? true : undefined;
    });
    const examples = join(repository, 'examples');
    for (const file of readdirSync(examples).sort()) {
      await plane.ok(['apply', '-f', '-'], readFileSync(join(examples, file), 'utf8'));
    }
    const keys = await jsonOf<{ items: (Conditions & { metadata: { name: string } })[] }>([
      'get',
      'apikeys',
      '-n',
      'team-a',
    ]);
    expect(keys.items.length).toBeGreaterThan(2);
    await operator.waitFor('every key reconciled, the active ones Ready', async () => {
      const now = await jsonOf<{ items: Conditions[] }>(['get', 'apikeys', '-n', 'team-a']);
      const reasons = now.items.map((key) => condition(key, 'Ready')?.reason);
      return reasons.every((reason) => reason !== undefined) && reasons.includes('Active')
        ? reasons
        : undefined;
    });
    const alice = await jsonOf<Conditions>(['get', 'apikey', 'alice', '-n', 'team-a']);
    expect(condition(alice, 'Ready')).toMatchObject({ status: 'True', reason: 'Active' });
    const generated = await jsonOf<{ type: string }>([
      'get',
      'secret',
      'alice-key',
      '-n',
      'team-a',
    ]);
    expect(generated.type).toBe('tollgate.dev/api-key');
    await operator.waitFor('status on Groups, Upstreams and the Account', async () => {
      const groups = await jsonOf<{ items: Conditions[] }>(['get', 'groups']);
      const upstreams = await jsonOf<{ items: Conditions[] }>(['get', 'upstreams']);
      const account = await jsonOf<{ status?: { spentUSD?: unknown } }>([
        'get',
        'account',
        'default',
        '-n',
        'team-a',
      ]);
      const all = [...groups.items, ...upstreams.items];
      return all.every((object) => condition(object, 'Ready') !== undefined) &&
        account.status?.spentUSD !== undefined
        ? true
        : undefined;
    });
    await plane.ok(['delete', 'apikey', 'alice', '-n', 'team-a', '--wait=false']);
    await waitUntil('alice gone (finalizer removed)', async () => {
      const result = await plane.kubectl(['get', 'apikey', 'alice', '-n', 'team-a']);
      return result.code !== 0 && result.stderr.includes('NotFound') ? true : undefined;
    });
    expect(await operator.stop()).toBe(0);
  });

  it('was never refused, used every grant, and breaks without any one of them', async () => {
    await expectLeastPrivilege('operator');
  });
});

describe('the console under the chart ServiceAccount and roles', () => {
  it('signs a person in and lists and creates keys as that person', async () => {
    const person = { username: 'kim', password: 'kim-password-123', groups: ['team-a-managers'] };
    await writeUsersSecret(plane, [person]);
    await plane.ok([
      'create',
      'rolebinding',
      'team-a-managers',
      '--clusterrole',
      'tollgate-key-manager',
      '--group',
      'team-a-managers',
      '-n',
      'team-a',
    ]);
    await plane.ok([
      'create',
      'clusterrolebinding',
      'team-a-managers-groups',
      '--clusterrole',
      'tollgate-group-reader',
      '--group',
      'team-a-managers',
    ]);
    await plane.kubectl(['create', 'namespace', 'team-b']);
    const port = await freePort();
    const consoleProcess = startTollgateProcess({
      cwd: repository,
      lifetimeMs: 60_000,
      args: ['console', '--kubeconfig', join(folder, 'console.kubeconfig'), '--host', '127.0.0.1'],
      environment: {
        TOLLGATE_CONSOLE_PORT: String(port),
        TOLLGATE_CONSOLE_OPERATOR_NAMESPACE: RELEASE.namespace,
        TOLLGATE_CONSOLE_GATEWAY_URL: 'http://127.0.0.1:1',
        HOME: folder,
      },
    });
    await consoleProcess.waitFor('the listening line', () =>
      consoleProcess.output().includes('Server listening at') ? true : undefined,
    );
    const base = `http://127.0.0.1:${port}/api/v1`;
    const signIn = await request(`${base}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: person.username, password: person.password }),
    });
    const session = (await signIn.body.json()) as { csrfToken: string };
    expect(signIn.statusCode).toBe(200);
    const cookie = /tollgate_console_session=[^;]+/.exec(
      [signIn.headers['set-cookie'] ?? []].flat().join('\n'),
    )?.[0];
    if (cookie === undefined) throw new Error('no session cookie');
    const get = async (path: string) => {
      const answer = await request(`${base}${path}`, { headers: { cookie } });
      return {
        status: answer.statusCode,
        body: (await answer.body.json()) as Record<string, unknown>,
      };
    };
    const accounts = await get('/accounts');
    expect(accounts.status).toBe(200);
    expect(JSON.stringify(accounts.body)).toContain('team-a');
    expect((await get('/accounts/team-a/keys')).status).toBe(200);
    expect((await get('/accounts/team-b/keys')).status).toBe(403);
    const created = await request(`${base}/accounts/team-a/keys`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'From the console', groupName: 'anthropic' }),
    });
    const body = (await created.body.json()) as { value?: string };
    expect(created.statusCode).toBe(201);
    expect(body.value).toMatch(/^sk-tg-/);
    expect(await consoleProcess.stop()).toBe(0);
  });

  it('was never refused, used every grant, and breaks without any one of them', async () => {
    await expectLeastPrivilege('console');
  });
});

async function expectLeastPrivilege(component: Component): Promise<void> {
  const recorder = recorders[component];
  const identity = identities[component];
  if (recorder === undefined || identity === undefined) throw new Error('not started');
  const own = recorder.requests.filter((each) => each.impersonateUser === undefined);
  expect(own.length).toBeGreaterThan(0);
  expect(own.filter((each) => each.status === 401 || each.status === 403)).toEqual([]);

  const { roles } = componentRbac(component);
  const grants = roles.flatMap(grantsOf);
  const uses = new Map<string, RequestAttributes[]>(grants.map((grant) => [grantKey(grant), []]));
  const attributes = recorder.requests.flatMap(attributesOf).filter((each) => each.resourceRequest);
  for (const each of attributes) {
    const matching = grants.filter((grant) => grantAllows(grant, each));
    expect(matching.length, `no grant allows ${JSON.stringify(each)}`).toBeGreaterThan(0);
    // A request only one grant allows depends on that grant.
    if (matching.length === 1 && matching[0] !== undefined)
      uses.get(grantKey(matching[0]))?.push(each);
  }
  const unused = [...uses].filter(([, used]) => used.length === 0).map(([key]) => key);
  expect(unused.sort()).toEqual(Object.keys(JUSTIFIED[component]).sort());

  for (const role of roles) {
    const roleGrants = grantsOf(role);
    for (const grant of roleGrants) {
      const used = uses.get(grantKey(grant)) ?? [];
      if (used.length === 0) continue;
      const witness = used[0] as RequestAttributes;
      expect(await allowed(identity, witness), `${grantKey(grant)} allows before`).toBe(true);
      await replaceRules(
        role,
        roleGrants.filter((other) => other !== grant),
      );
      try {
        expect(await allowed(identity, witness), `without ${grantKey(grant)}`).toBe(false);
      } finally {
        await replaceRules(role, roleGrants);
      }
    }
  }
}

async function replaceRules(role: KubernetesObject, grants: readonly Grant[]): Promise<void> {
  const rules = grants.map((grant) => ({
    apiGroups: [grant.apiGroup],
    resources: [grant.resource],
    verbs: [grant.verb],
    ...(grant.resourceName === undefined ? {} : { resourceNames: [grant.resourceName] }),
  }));
  const { apiVersion, kind, metadata } = role;
  await plane.ok(['replace', '-f', '-'], JSON.stringify({ apiVersion, kind, metadata, rules }));
}
