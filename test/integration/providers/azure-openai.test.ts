/**
 * Azure OpenAI upstreams through the gateway, with the official `openai` SDK as the client and a
 * fake Azure resource and Entra ID (real HTTP servers) on the other side: the v1 API and the
 * deployment paths with api-version, the api-key header and the Entra ID bearer token (one token
 * request for concurrent calls, a fresh one after Azure refuses it), streamed and not, the usage
 * record of each call.
 */
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../store/store.js';
import { putCloudUpstream } from '../../support/cloud-upstreams.js';
import { startFakeAzureOpenAI, type FakeAzureOpenAI } from '../../support/fake-azure-openai.js';
import {
  buildGateway,
  createKey,
  markPoliciesProgrammed,
  newSecrets,
  openStore,
  writeAccount,
} from '../../support/gateway-fixture.js';
import { settledRecord } from '../gateway/upstream-failover-setup.js';

const namespace = 'team-azure';
const secrets = newSecrets();
const entra = { tenantID: 'contoso-tenant', clientID: 'app-client', clientSecret: 'app-secret' };
let store: Store;
let azure: FakeAzureOpenAI;
let app: FastifyInstance;
let base: string;
const keys = { v1: '', deployments: '', entra: '', badSecret: '' };

async function keyFor(upstream: string): Promise<string> {
  const created = await createKey(store, secrets, {
    platform: 'OpenAI',
    namespace,
    upstreams: [{ name: upstream, weight: 1, priority: 0 }],
    group: { name: `group-${upstream}` },
  });
  return created.value;
}

beforeAll(async () => {
  store = await openStore('memory', '');
  azure = await startFakeAzureOpenAI({ apiKey: 'azure-key', entra });
  const endpoint = azure.url;
  const apiKey = { type: 'APIKey', apiKey: 'azure-key' } as const;
  await putCloudUpstream(store, secrets, {
    name: 'azure-v1',
    platform: 'OpenAI',
    provider: { kind: 'AzureOpenAI', endpoint, apiVersion: null, credentials: apiKey },
  });
  await putCloudUpstream(store, secrets, {
    name: 'azure-deployments',
    platform: 'OpenAI',
    provider: { kind: 'AzureOpenAI', endpoint, apiVersion: '2024-10-21', credentials: apiKey },
    modelOverrides: { 'gpt-5': 'gpt5-prod' },
    chatCompletions: 'Native',
  });
  await putCloudUpstream(store, secrets, {
    name: 'azure-entra',
    platform: 'OpenAI',
    provider: {
      kind: 'AzureOpenAI',
      endpoint,
      apiVersion: null,
      credentials: { type: 'AzureEntraID', ...entra },
    },
  });
  await putCloudUpstream(store, secrets, {
    name: 'azure-bad-secret',
    platform: 'OpenAI',
    provider: {
      kind: 'AzureOpenAI',
      endpoint,
      apiVersion: null,
      credentials: { type: 'AzureEntraID', ...entra, clientSecret: 'wrong' },
    },
  });
  await markPoliciesProgrammed(store);
  await writeAccount(store, namespace);
  keys.v1 = await keyFor('azure-v1');
  keys.deployments = await keyFor('azure-deployments');
  keys.entra = await keyFor('azure-entra');
  keys.badSecret = await keyFor('azure-bad-secret');
  app = buildGateway(store, secrets, {
    config: {
      providerEndpoints: { awsSts: null, gceMetadata: null, azureAuthority: azure.authority },
    },
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await azure.close();
  await store.close();
});

const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 });

function lastCall() {
  const call = azure.calls.at(-1);
  if (call === undefined) throw new Error('no call reached Azure');
  return call;
}

async function recordOf(requestId: string | null | undefined) {
  if (requestId === null || requestId === undefined) throw new Error('no request id');
  return settledRecord(store, namespace, requestId);
}

describe('the v1 API with an api-key', () => {
  it('creates a response at /openai/v1/responses and bills it', async () => {
    const { data, response } = await client(keys.v1)
      .responses.create({ model: 'gpt-5', input: 'Hello' })
      .withResponse();
    expect(data.output_text).toContain('FAKE_OK');
    const call = lastCall();
    expect(call.path).toBe('/openai/v1/responses');
    expect(call.headers['api-key']).toBe('azure-key');
    expect(call.headers.authorization).toBeUndefined();
    expect(JSON.stringify(call.headers)).not.toContain(keys.v1);
    const record = await recordOf(response.headers.get('x-tollgate-request-id'));
    expect(record).toMatchObject({ upstream: 'azure-v1', model: 'gpt-5', accuracy: 'exact' });
    expect(record.costNano).toBeGreaterThan(0);
  });

  it('streams a response to finalResponse() with its usage', async () => {
    const stream = client(keys.v1).responses.stream({ model: 'gpt-5', input: 'Hello' });
    const response = await stream.finalResponse();
    expect(response.output_text).toContain('FAKE_OK');
    expect(response.usage?.output_tokens).toBeGreaterThan(0);
    expect(lastCall().body).toMatchObject({ model: 'gpt-5', stream: true });
  });

  it('answers chat completions through Responses on the v1 API', async () => {
    const completion = await client(keys.v1).chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toContain('FAKE_OK');
    expect(lastCall().path).toBe('/openai/v1/responses');
  });
});

describe('deployment paths with api-version', () => {
  it('sends chat completions to the deployment named by modelOverrides', async () => {
    const { data, response } = await client(keys.deployments)
      .chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toContain('FAKE_OK');
    const call = lastCall();
    expect(call.path).toBe('/openai/deployments/gpt5-prod/chat/completions');
    expect(call.query).toEqual({ 'api-version': '2024-10-21' });
    const record = await recordOf(response.headers.get('x-tollgate-request-id'));
    expect(record).toMatchObject({
      upstream: 'azure-deployments',
      model: 'gpt-5',
      upstreamModel: 'gpt5-prod',
    });
  });

  it('streams chat completions from the deployment', async () => {
    const stream = await client(keys.deployments).chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toContain('FAKE_OK');
    expect(usage).not.toBeNull();
    expect(lastCall().path).toBe('/openai/deployments/gpt5-prod/chat/completions');
  });

  it('sends Responses to /openai/responses with api-version', async () => {
    const response = await client(keys.deployments).responses.create({
      model: 'gpt-5',
      input: 'Hello',
    });
    expect(response.output_text).toContain('FAKE_OK');
    expect(lastCall()).toMatchObject({
      path: '/openai/responses',
      query: { 'api-version': '2024-10-21' },
      body: { model: 'gpt5-prod' },
    });
  });
});

describe('Entra ID client credentials', () => {
  it('asks for one token for concurrent calls and sends it as a bearer token', async () => {
    const before = azure.tokensIssued;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client(keys.entra).responses.create({ model: 'gpt-5', input: 'Hello' }),
      ),
    );
    expect(answers.every((answer) => answer.output_text.includes('FAKE_OK'))).toBe(true);
    expect(azure.tokensIssued - before).toBe(1);
    const call = lastCall();
    expect(call.headers.authorization).toBe(`Bearer entra-token-${String(azure.tokensIssued)}`);
    expect(call.headers['api-key']).toBeUndefined();
  });

  it('asks for a fresh token after Azure refused the cached one', async () => {
    await client(keys.entra).responses.create({ model: 'gpt-5', input: 'warm' });
    const before = azure.tokensIssued;
    azure.revokeTokens();
    const refused = await client(keys.entra)
      .responses.create({ model: 'gpt-5', input: 'Hello' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    const answer = await client(keys.entra).responses.create({ model: 'gpt-5', input: 'again' });
    expect(answer.output_text).toContain('FAKE_OK');
    expect(azure.tokensIssued).toBe(before + 1);
  });

  it('answers a token refusal in the OpenAI error shape without reaching Azure', async () => {
    const calls = azure.calls.length;
    const error = await client(keys.badSecret)
      .responses.create({ model: 'gpt-5', input: 'Hello' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((error as Error).message).toContain(
      'The upstream provider refused the gateway credential. Ask an administrator. (the token endpoint answered 400)',
    );
    expect(azure.calls.length).toBe(calls);
  });
});
