/**
 * The console's client configuration against the local control plane with RBAC on:
 * `GET /accounts/{ns}/keys/{name}/client-config` as the signed-in user (the tools of the key's
 * platform, placeholders only), refusals (another namespace, no Group read right, no gateway URL),
 * the configuration with the real value in the creation and rotation answers, the OpenAPI entry,
 * and the `--gateway-url` flag.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleApp } from '../../../console/server/app.js';
import type { ClientConfig } from '../../../console/server/client-config/generate-client-config.js';
import { parseConsoleConfig } from '../../../console/server/console-config.js';
import type { Plane } from '../control-plane/control-plane-harness.js';
import { startPlane } from '../control-plane/control-plane-harness.js';
import { buildConsole, call, signIn, writeUsersSecret, type Signed } from './console-harness.js';

vi.setConfig({ testTimeout: 60_000 });

const GATEWAY = 'https://gw.example.test';
const PLACEHOLDER = '<your-tollgate-key>';

const users = [
  { username: 'alice', password: 'alice-password-1', groups: ['team-a-managers'] },
  { username: 'bob', password: 'bob-password-123', groups: [] },
  { username: 'carl', password: 'carl-password-12', groups: [] },
];

interface Created {
  value: string;
  key: { name: string };
  clientConfig: ClientConfig | null;
}

interface ErrorBody {
  error: { code: string; message: string };
}

let plane: Plane;
let app: ConsoleApp;
let alice: Signed;
let bob: Signed;
let carl: Signed;
let claudeKey: Created;

const groupYaml = (name: string, platform: string) =>
  `apiVersion: tollgate.dev/v1alpha1\nkind: Group\nmetadata:\n  name: ${name}\n` +
  `spec:\n  platform: ${platform}\n`;

function createKey(name: string, groupName: string) {
  return call(app, alice, {
    method: 'POST',
    url: '/api/v1/accounts/team-a/keys',
    payload: { name, displayName: name, groupName },
  });
}

function clientConfigOf(signed: Signed, name: string, target: ConsoleApp = app) {
  return call(target, signed, {
    method: 'GET',
    url: `/api/v1/accounts/team-a/keys/${name}/client-config`,
  });
}

beforeAll(async () => {
  plane = await startPlane();
  for (const namespace of ['team-a', 'team-b']) await plane.ok(['create', 'namespace', namespace]);
  const bind = (name: string, role: string, flags: string[]) =>
    plane.ok(['create', 'rolebinding', name, '--clusterrole', role, ...flags]);
  await bind('a-managers', 'tollgate-key-manager', ['--group', 'team-a-managers', '-n', 'team-a']);
  await bind('carl-keys', 'tollgate-key-manager', ['--user', 'carl', '-n', 'team-a']);
  await bind('bob-keys', 'tollgate-key-manager', ['--user', 'bob', '-n', 'team-b']);
  for (const [name, subject] of [
    ['a-groups', '--group=team-a-managers'],
    ['bob-groups', '--user=bob'],
  ] as const) {
    await plane.ok([
      'create',
      'clusterrolebinding',
      name,
      '--clusterrole',
      'tollgate-group-reader',
      subject,
    ]);
  }
  await plane.ok(['apply', '-f', '-'], groupYaml('claude', 'Anthropic'));
  await plane.ok(['apply', '-f', '-'], groupYaml('gpt', 'OpenAI'));
  await writeUsersSecret(plane, users);
  app = buildConsole(plane, { config: { gatewayUrl: GATEWAY } });
  alice = await signIn(app, users[0]!);
  bob = await signIn(app, users[1]!);
  carl = await signIn(app, users[2]!);
  const response = await createKey('claude-key', 'claude');
  expect(response.statusCode, response.body).toBe(201);
  claudeKey = response.json<Created>();
});

afterAll(async () => {
  await app.close();
  await plane.stop();
});

describe('creation and rotation answers', () => {
  it('carry the client configuration with the real value and a CC Switch link', () => {
    const config = claudeKey.clientConfig;
    expect(config).not.toBeNull();
    expect(config!.platform).toBe('Anthropic');
    expect(config!.baseUrl).toBe(GATEWAY);
    expect(config!.tools.map((tool) => tool.tool)).toEqual(['claude-code', 'opencode']);
    const claude = config!.tools[0]!;
    expect(claude.env).toContainEqual({ name: 'ANTHROPIC_AUTH_TOKEN', value: claudeKey.value });
    expect(JSON.stringify(config)).not.toContain(PLACEHOLDER);
    const link = new URL(claude.ccSwitchLink!);
    expect(link.protocol).toBe('ccswitch:');
    expect(link.searchParams.get('app')).toBe('claude');
    expect(link.searchParams.get('apiKey')).toBe(claudeKey.value);
    expect(link.searchParams.get('name')).toBe('claude-key');
    expect(link.searchParams.get('endpoint')).toBe(GATEWAY);
  });

  it('rotation answers the configuration with the new value', async () => {
    const created = await createKey('rotated-key', 'gpt');
    expect(created.statusCode, created.body).toBe(201);
    const response = await call(app, alice, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys/rotated-key/rotate',
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(200);
    const rotated = response.json<Created>();
    expect(rotated.value).not.toBe(created.json<Created>().value);
    const codex = rotated.clientConfig!.tools.find((tool) => tool.tool === 'codex')!;
    expect(codex.env).toContainEqual({ name: 'TOLLGATE_API_KEY', value: rotated.value });
    expect(new URL(codex.ccSwitchLink!).searchParams.get('apiKey')).toBe(rotated.value);
  });

  it('is null (the key still created) when the user may not read the Group', async () => {
    const response = await call(app, carl, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { name: 'carl-key', displayName: 'carl-key', groupName: 'claude' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Created>().clientConfig).toBeNull();
    expect(response.json<Created>().value).toMatch(/^sk-tg-/);
  });
});

describe('GET /accounts/{ns}/keys/{name}/client-config', () => {
  it('answers the Anthropic tools with placeholders only', async () => {
    const response = await clientConfigOf(alice, 'claude-key');
    expect(response.statusCode, response.body).toBe(200);
    const config = response.json<ClientConfig>();
    expect(config.platform).toBe('Anthropic');
    expect(config.usageUrl).toBe(`${GATEWAY}/v1/usage`);
    expect(config.tools.map((tool) => tool.tool)).toEqual(['claude-code', 'opencode']);
    expect(config.tools[0]!.env).toContainEqual({
      name: 'ANTHROPIC_AUTH_TOKEN',
      value: PLACEHOLDER,
    });
    // The CC Switch link carries the placeholder too (the value is pasted in after the import);
    // OpenCode's import is for OpenAI keys only.
    const link = new URL(config.tools[0]!.ccSwitchLink!);
    expect(link.searchParams.get('apiKey')).toBe(PLACEHOLDER);
    expect(config.tools[1]!.ccSwitchLink).toBeNull();
    expect(config.keyIncluded).toBe(false);
    expect(response.body).not.toContain(claudeKey.value);
    expect(response.body).not.toContain('sk-tg-');
  });

  it('answers the OpenAI tools for an OpenAI key', async () => {
    const created = await createKey('gpt-key', 'gpt');
    expect(created.statusCode, created.body).toBe(201);
    const response = await clientConfigOf(alice, 'gpt-key');
    expect(response.statusCode, response.body).toBe(200);
    const config = response.json<ClientConfig>();
    expect(config.platform).toBe('OpenAI');
    expect(config.tools.map((tool) => tool.tool)).toEqual(['codex', 'opencode']);
    const codexFile = config.tools[0]!.files[0]!;
    expect(codexFile.path).toBe('~/.codex/config.toml');
    expect(codexFile.content).toContain(`${GATEWAY}/v1`);
    expect(config.tools[0]!.env).toContainEqual({ name: 'TOLLGATE_API_KEY', value: PLACEHOLDER });
    expect(response.body).not.toContain(created.json<Created>().value);
  });

  it('refuses a user of another namespace (RBAC on the key)', async () => {
    const response = await clientConfigOf(bob, 'claude-key');
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json<ErrorBody>().error.code).toBe('FORBIDDEN');
  });

  it('refuses, naming tollgate-group-reader, a user who may not read the Group', async () => {
    const response = await clientConfigOf(carl, 'claude-key');
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json<ErrorBody>().error.message).toContain('tollgate-group-reader');
  });

  it('answers 409 for a key without a group', async () => {
    const created = await call(app, alice, {
      method: 'POST',
      url: '/api/v1/accounts/team-a/keys',
      payload: { name: 'no-group', displayName: 'no-group' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Created>().clientConfig).toBeNull();
    const response = await clientConfigOf(alice, 'no-group');
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json<ErrorBody>().error.message).toContain('no group');
  });

  it('answers 409 CONFLICT naming --gateway-url when the console has none', async () => {
    const bare = buildConsole(plane);
    try {
      const signed = await signIn(bare, users[0]!);
      const response = await clientConfigOf(signed, 'claude-key', bare);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json<ErrorBody>().error).toMatchObject({ code: 'CONFLICT' });
      expect(response.json<ErrorBody>().error.message).toContain('--gateway-url');
    } finally {
      await bare.close();
    }
  });
});

describe('OpenAPI and configuration', () => {
  it('lists the route and the clientConfig of the creation answer', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const document = response.json<{
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    }>();
    const path = document.paths['/api/v1/accounts/{namespace}/keys/{name}/client-config'];
    expect(path?.get).toBeDefined();
    expect(JSON.stringify(path?.get?.responses)).toContain('ccSwitchLink');
    const create = document.paths['/api/v1/accounts/{namespace}/keys']?.post?.responses;
    expect(JSON.stringify(create)).toContain('clientConfig');
  });

  it('reads --gateway-url, else TOLLGATE_CONSOLE_GATEWAY_URL, and refuses a non-URL', () => {
    const environment = { TOLLGATE_CONSOLE_GATEWAY_URL: 'https://env.example.test' };
    expect(parseConsoleConfig([], environment).gatewayUrl).toBe('https://env.example.test');
    expect(parseConsoleConfig(['--gateway-url', GATEWAY], environment).gatewayUrl).toBe(GATEWAY);
    expect(parseConsoleConfig([], {}).gatewayUrl).toBeUndefined();
    expect(() => parseConsoleConfig(['--gateway-url', 'gw.example.test'], {})).toThrow(
      /gatewayUrl/,
    );
  });
});
