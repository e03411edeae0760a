/** Invalid manifests are refused by the schema and CEL rules with kubectl-readable field paths. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { Plane } from './control-plane-harness.js';
import { startPlane } from './control-plane-harness.js';

// Each test runs several kubectl processes; a busy shared machine can make them slow.
vi.setConfig({ testTimeout: 60_000 });

const upstream = (name: string, spec: string): string =>
  `apiVersion: tollgate.dev/v1alpha1\nkind: Upstream\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
const apiKey = (name: string, spec: string): string =>
  `apiVersion: tollgate.dev/v1alpha1\nkind: ApiKey\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n${spec}`;
const apiKeyCredentials = '  credentials: {type: APIKey, apiKey: {secretRef: {name: s, key: k}}}\n';

let plane: Plane;
beforeAll(async () => {
  plane = await startPlane();
});
afterAll(async () => {
  await plane.stop();
});

async function refused(manifest: string): Promise<string> {
  const result = await plane.kubectl(['apply', '-f', '-'], manifest);
  expect(result.code).not.toBe(0);
  return result.stderr;
}

describe('schema validation', () => {
  it('refuses a negative quota with the pattern the field must match', async () => {
    const stderr = await refused(apiKey('neg', '  limits:\n    quotaUSD: "-1"\n'));
    expect(stderr).toContain('The ApiKey "neg" is invalid');
    expect(stderr).toContain(
      `spec.limits.quotaUSD: Invalid value: "-1": spec.limits.quotaUSD in body should match '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,6})?$'`,
    );
    const lookup = await plane.kubectl(['get', 'ak', 'neg']);
    expect(lookup.stderr).toContain('apikeys.tollgate.dev "neg" not found');
  });

  it('refuses an unknown platform, listing the supported values', async () => {
    const stderr = await refused(
      upstream('foo', `  platform: Foo\n  baseURL: http://127.0.0.1:1\n${apiKeyCredentials}`),
    );
    expect(stderr).toContain(
      'spec.platform: Unsupported value: "Foo": supported values: "Anthropic", "OpenAI", "Gemini", "Antigravity"',
    );
  });

  it('refuses a source range that is not an address', async () => {
    const stderr = await refused(apiKey('ranges', '  sourceRanges:\n    allow: ["not-an-ip"]\n'));
    expect(stderr).toMatch(
      /spec\.sourceRanges\.allow\[0\]: Invalid value: "not-an-ip": .* should match/,
    );
  });

  it('refuses duplicate list-map keys, bad dates, and too long strings', async () => {
    const group = [
      'apiVersion: tollgate.dev/v1alpha1',
      'kind: Group',
      'metadata: {name: dup}',
      'spec:',
      '  platform: Gemini',
      '  upstreamRefs: [{name: a}, {name: a}]',
      '',
    ].join('\n');
    expect(await refused(group)).toContain('spec.upstreamRefs[1]: Duplicate value: {"name":"a"}');
    const dated = await refused(apiKey('dated', '  expirationTime: tomorrow\n'));
    expect(dated).toContain('spec.expirationTime: Invalid value: "tomorrow"');
    const long = await refused(apiKey('long', `  displayName: "${'x'.repeat(201)}"\n`));
    expect(long).toContain('spec.displayName: Too long: may not be more than 200 bytes');
  });

  it('applies defaults and prunes unknown fields when validation is off', async () => {
    await plane.ok(
      ['apply', '--validate=false', '-f', '-'],
      apiKey('defaults', '  displayName: d\n  surprise: true\n'),
    );
    const stored = parse(await plane.ok(['get', 'ak', 'defaults', '-o', 'yaml'])) as {
      spec: Record<string, unknown>;
    };
    expect(stored.spec).toEqual({ displayName: 'd', secretKey: 'apiKey', suspend: false });
    const strict = await refused(apiKey('strict', '  surprise: true\n'));
    expect(strict).toContain('unknown field "spec.surprise"');
  });
});

describe('CEL rules', () => {
  it('refuses changing an immutable Group platform, and only on update', async () => {
    const group = (platform: string): string =>
      `apiVersion: tollgate.dev/v1alpha1\nkind: Group\nmetadata: {name: fixed}\nspec: {platform: ${platform}}\n`;
    await plane.ok(['apply', '-f', '-'], group('OpenAI'));
    const stderr = await refused(group('Gemini'));
    expect(stderr).toContain('spec.platform: Invalid value: "string": platform is immutable');
    const patched = await plane.kubectl([
      'patch',
      'tgg',
      'fixed',
      '--type',
      'merge',
      '-p',
      '{"spec":{"platform":"Anthropic"}}',
    ]);
    expect(patched.stderr).toContain('platform is immutable');
  });

  it('refuses an Account not named default, naming the wrong name', async () => {
    const stderr = await refused(
      'apiVersion: tollgate.dev/v1alpha1\nkind: Account\nmetadata: {name: other, namespace: default}\nspec: {creditUSD: 1}\n',
    );
    expect(stderr).toContain(
      'The Account "other" is invalid: metadata.name: Unsupported value: "other": supported values: "default"',
    );
  });

  it('refuses a credentials union with both members set', async () => {
    const both = [
      '  platform: Gemini',
      '  baseURL: http://127.0.0.1:1',
      '  credentials:',
      '    type: APIKey',
      '    apiKey: {secretRef: {name: s, key: k}}',
      '    googleOAuth: {secretRef: {name: s}, clientID: c, tokenURL: "http://127.0.0.1:1", projectID: p}',
      '',
    ].join('\n');
    const stderr = await refused(upstream('both', both));
    expect(stderr).toContain(
      'spec.credentials: Invalid value: "object": set exactly the member named by type (apiKey for APIKey, googleOAuth for GoogleOAuth, awsAccessKey for AWSAccessKey,',
    );
  });

  it('reports a rule with a fieldPath at that field', async () => {
    const stderr = await refused(
      upstream(
        'chat',
        `  platform: Gemini\n  baseURL: http://127.0.0.1:1\n  chatCompletions: Native\n${apiKeyCredentials}`,
      ),
    );
    expect(stderr).toContain(
      'spec.chatCompletions: Invalid value: "object": chatCompletions applies to OpenAI upstreams only',
    );
  });

  it('takes responsesWebSocket on OpenAI Direct upstreams only', async () => {
    const direct = `  platform: OpenAI\n  baseURL: http://127.0.0.1:1\n${apiKeyCredentials}`;
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('ws-openai', `${direct}  responsesWebSocket: Enabled\n`),
    );
    const refusal =
      'spec.responsesWebSocket: Invalid value: "object": responsesWebSocket applies to OpenAI upstreams with provider Direct only';
    const anthropic = `  platform: Anthropic\n  baseURL: http://127.0.0.1:1\n${apiKeyCredentials}`;
    expect(
      await refused(upstream('ws-anthropic', `${anthropic}  responsesWebSocket: Enabled\n`)),
    ).toContain(refusal);
    const azure =
      '  platform: OpenAI\n  provider: AzureOpenAI\n  azureOpenAI: {endpoint: "https://r.openai.azure.com"}\n';
    expect(
      await refused(
        upstream('ws-azure', `${azure}${apiKeyCredentials}  responsesWebSocket: Enabled\n`),
      ),
    ).toContain(refusal);
  });
});

describe('cloud provider rules', () => {
  const bedrock = '  provider: AWSBedrock\n  awsBedrock: {region: us-east-1}\n';
  const awsKeys = '  credentials: {type: AWSAccessKey, awsAccessKey: {secretRef: {name: aws}}}\n';
  const vertex = '  provider: GCPVertexAI\n  gcpVertexAI: {project: p, location: global}\n';
  const workload = '  credentials: {type: GCPWorkloadIdentity}\n';
  const azure =
    '  provider: AzureOpenAI\n  azureOpenAI: {endpoint: "https://r.openai.azure.com"}\n';
  const entra =
    '  credentials: {type: AzureEntraID, azureEntraID: {tenantID: t, clientID: c, secretRef: {name: e}}}\n';

  it('accepts each provider on its platforms, with provider Direct filled in by default', async () => {
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('bedrock', `  platform: Anthropic\n${bedrock}${awsKeys}`),
    );
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('vertex-claude', `  platform: Anthropic\n${vertex}${workload}`),
    );
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('vertex-gemini', `  platform: Gemini\n${vertex}${workload}`),
    );
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('azure-key', `  platform: OpenAI\n${azure}${apiKeyCredentials}`),
    );
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('azure-entra', `  platform: OpenAI\n${azure}${entra}`),
    );
    const web =
      '  credentials: {type: AWSWebIdentity, awsWebIdentity: {roleARN: "arn:aws:iam::123456789012:role/r", tokenFile: /var/run/secrets/eks.amazonaws.com/serviceaccount/token}}\n';
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('bedrock-web', `  platform: Anthropic\n${bedrock}${web}`),
    );
    await plane.ok(
      ['apply', '-f', '-'],
      upstream('direct', `  platform: OpenAI\n  baseURL: http://127.0.0.1:1\n${apiKeyCredentials}`),
    );
    const stored = parse(await plane.ok(['get', 'ups', 'direct', '-o', 'yaml'])) as {
      spec: { provider?: string };
    };
    expect(stored.spec.provider).toBe('Direct');
  });

  it('refuses a provider on a platform it does not serve, naming provider', async () => {
    expect(
      await refused(upstream('b-openai', `  platform: OpenAI\n${bedrock}${awsKeys}`)),
    ).toContain(
      'spec.provider: Invalid value: "object": provider AWSBedrock serves the Anthropic platform only',
    );
    expect(
      await refused(upstream('v-openai', `  platform: OpenAI\n${vertex}${workload}`)),
    ).toContain(
      'spec.provider: Invalid value: "object": provider GCPVertexAI serves the Anthropic or Gemini platform only',
    );
    expect(
      await refused(upstream('a-claude', `  platform: Anthropic\n${azure}${apiKeyCredentials}`)),
    ).toContain(
      'spec.provider: Invalid value: "object": provider AzureOpenAI serves the OpenAI platform only',
    );
  });

  it('refuses a credential type the provider does not take, naming credentials.type', async () => {
    expect(
      await refused(upstream('b-key', `  platform: Anthropic\n${bedrock}${apiKeyCredentials}`)),
    ).toContain(
      'spec.credentials.type: Invalid value: "object": provider AWSBedrock authenticates with AWSAccessKey or AWSWebIdentity credentials',
    );
    expect(await refused(upstream('a-aws', `  platform: OpenAI\n${azure}${awsKeys}`))).toContain(
      'provider AzureOpenAI authenticates with APIKey or AzureEntraID credentials',
    );
    const direct = `  platform: Anthropic\n  baseURL: http://127.0.0.1:1\n${awsKeys}`;
    expect(await refused(upstream('d-aws', direct))).toContain(
      'spec.credentials.type: Invalid value: "object": provider Direct authenticates with APIKey or GoogleOAuth credentials',
    );
  });

  it('refuses a settings block missing or set for another provider, naming the block', async () => {
    const missing = `  platform: Anthropic\n  provider: AWSBedrock\n${awsKeys}`;
    expect(await refused(upstream('no-block', missing))).toContain(
      'spec.awsBedrock: Invalid value: "object": awsBedrock is set exactly when provider is AWSBedrock',
    );
    const stray = `  platform: Anthropic\n${bedrock}  gcpVertexAI: {project: p, location: global}\n${awsKeys}`;
    expect(await refused(upstream('stray-block', stray))).toContain(
      'spec.gcpVertexAI: Invalid value: "object": gcpVertexAI is set exactly when provider is GCPVertexAI',
    );
  });

  it('requires baseURL for Direct upstreams only', async () => {
    expect(await refused(upstream('no-url', `  platform: OpenAI\n${apiKeyCredentials}`))).toContain(
      'spec.baseURL: Invalid value: "object": baseURL is required for provider Direct',
    );
    const cloud = `  platform: OpenAI\n  baseURL: http://127.0.0.1:1\n${azure}${apiKeyCredentials}`;
    expect(await refused(upstream('url-cloud', cloud))).toContain(
      'spec.baseURL: Invalid value: "object": baseURL is required for provider Direct, and applies to it only',
    );
  });

  it('refuses a credentials member other than the one its type names', async () => {
    const mixed = `  platform: Anthropic\n${bedrock}  credentials: {type: AWSAccessKey, awsAccessKey: {secretRef: {name: a}}, apiKey: {secretRef: {name: s, key: k}}}\n`;
    expect(await refused(upstream('mixed', mixed))).toContain(
      'spec.credentials: Invalid value: "object": set exactly the member named by type',
    );
  });

  it('refuses a notifier with no event, or with credentials in its webhook URL', async () => {
    const notifier = (name: string, url: string, events: string) =>
      'apiVersion: tollgate.dev/v1alpha1\nkind: Notifier\n' +
      `metadata: {name: ${name}, namespace: default}\n` +
      `spec:\n  webhook: {url: "${url}", signingSecretRef: {name: s, key: k}}\n  events: ${events}\n`;
    const noEvent = await refused(notifier('quiet', 'https://hooks.example.com/t', '{}'));
    expect(noEvent).toContain('spec.events: Invalid value: "object": name at least one event (');
    const userinfo = await refused(
      notifier('creds', 'https://user:pass@hooks.example.com/t', '{keyExpiring: {withinDays: 3}}'),
    );
    expect(userinfo).toContain(
      'spec.webhook.url: Invalid value: "string": must not carry credentials (user:password@)',
    );
    const cluster = await refused(
      'apiVersion: tollgate.dev/v1alpha1\nkind: ClusterNotifier\nmetadata: {name: quiet}\n' +
        'spec: {slack: {webhookURLSecretRef: {name: s, key: k}}, events: {}}\n',
    );
    expect(cluster).toContain('upstreamCircuitOpen)');
    // An @ after the host (in the path or query) is no credential.
    const accepted = await plane.kubectl(
      ['apply', '-f', '-'],
      notifier('fine', 'https://hooks.example.com/t?to=a@b', '{keyExpiring: {withinDays: 3}}'),
    );
    expect(accepted.code, accepted.stderr).toBe(0);
  });
});
