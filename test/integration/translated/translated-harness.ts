/**
 * Setup of the translated-route suites: a real store (memory or Redis), the real fake provider as
 * every upstream (with its OAuth token endpoint), policy documents written through the store's
 * writer API, and the gateway built with `build()` on a real port.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { UpstreamPolicy } from '../../../store/policy-documents.js';
import { sealCredential } from '../../../store/seal-credential.js';
import type { Platform, Store } from '../../../store/store.js';
import {
  DEFAULT_FAKE_CREDENTIAL,
  startFakeProvider,
  type FakeProvider,
  type FakeProviderOptions,
} from '../../../local/simulator/start-fake-provider.js';
import {
  buildGateway,
  createKey,
  markPoliciesProgrammed,
  newSecrets,
  openStore,
  writeAccount,
  type Secrets,
  type StoreKind,
} from '../../support/gateway-fixture.js';

export const NAMESPACE = 'team-translated';
export const PROJECT_ID = 'tollgate-test-project';
export const REFRESH_TOKEN = 'test-refresh-token';
export const ACCESS_TOKEN = 'test-access-token';

export interface TranslatedEnv {
  store: Store;
  fake: FakeProvider;
  app: FastifyInstance;
  /** The gateway's base URL, e.g. `http://127.0.0.1:1234`. */
  base: string;
  secrets: Secrets;
  /** Keys by name: `chat` (Translate upstream), `native` (Native upstream), `antigravity`. */
  keys: { chat: string; native: string; antigravity: string };
  /** Moves the gateway clock forward. */
  advance(milliseconds: number): void;
  close(): Promise<void>;
}

export interface TranslatedEnvOptions {
  store?: StoreKind;
  redisUrl?: string;
  oauth?: FakeProviderOptions['oauth'];
}

type UpstreamInput = Pick<UpstreamPolicy, 'name' | 'platform' | 'chatCompletions'> & {
  secret: string;
  oauth?: UpstreamPolicy['oauth'];
};

async function putUpstream(
  env: { store: Store; secrets: Secrets; fake: FakeProvider },
  input: UpstreamInput,
) {
  await env.store.putUpstream({
    digest: randomUUID(),
    name: input.name,
    platform: input.platform,
    baseURL: env.fake.url,
    sealedCredential: sealCredential(env.secrets.credentialKey, input.secret),
    credentialType: input.oauth ? 'GoogleOAuth' : 'APIKey',
    oauth: input.oauth ?? null,
    maxConcurrent: 0,
    modelOverrides: {},
    chatCompletions: input.chatCompletions,
  });
}

async function keyFor(
  env: { store: Store; secrets: Secrets },
  options: { platform: Platform; upstream: string },
): Promise<string> {
  const created = await createKey(env.store, env.secrets, {
    platform: options.platform,
    namespace: NAMESPACE,
    group: {
      name: `${options.upstream}-group`,
      upstreams: [{ name: options.upstream, weight: 1, priority: 0 }],
    },
  });
  return created.value;
}

export async function startTranslatedEnv(
  options: TranslatedEnvOptions = {},
): Promise<TranslatedEnv> {
  const secrets = newSecrets();
  const store = await openStore(options.store ?? 'memory', options.redisUrl ?? '');
  const fake = await startFakeProvider({
    oauth: { refreshToken: REFRESH_TOKEN, accessToken: ACCESS_TOKEN, ...options.oauth },
    keepRequests: 1_000,
  });
  const parts = { store, secrets, fake };
  await markPoliciesProgrammed(store);
  const apiKey = JSON.stringify({ apiKey: DEFAULT_FAKE_CREDENTIAL });
  await putUpstream(parts, {
    name: 'openai-translate',
    platform: 'OpenAI',
    chatCompletions: 'Translate',
    secret: apiKey,
  });
  await putUpstream(parts, {
    name: 'openai-native',
    platform: 'OpenAI',
    chatCompletions: 'Native',
    secret: apiKey,
  });
  await putUpstream(parts, {
    name: 'antigravity-oauth',
    platform: 'Antigravity',
    chatCompletions: 'Translate',
    secret: JSON.stringify({ refreshToken: REFRESH_TOKEN, clientSecret: 'test-client-secret' }),
    oauth: {
      clientID: 'tollgate-test-client',
      tokenURL: `${fake.url}/oauth2/token`,
      projectID: PROJECT_ID,
    },
  });
  await writeAccount(store, NAMESPACE);
  const keys = {
    chat: await keyFor(parts, { platform: 'OpenAI', upstream: 'openai-translate' }),
    native: await keyFor(parts, { platform: 'OpenAI', upstream: 'openai-native' }),
    antigravity: await keyFor(parts, { platform: 'Antigravity', upstream: 'antigravity-oauth' }),
  };
  let offset = 0;
  const app = buildGateway(store, secrets, { clock: () => Date.now() + offset });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    store,
    fake,
    app,
    base,
    secrets,
    keys,
    advance: (milliseconds) => {
      offset += milliseconds;
    },
    close: async () => {
      await app.close();
      await fake.close();
      await store.close();
    },
  };
}

/** The upstream requests the fake recorded on one path. */
export function upstreamCalls(env: TranslatedEnv, path: string) {
  return env.fake.requests.filter((request) => request.path === path);
}

/** Waits until the key has `count` settled usage records (settlement runs after the reply). */
export async function settledRecords(env: TranslatedEnv, count: number) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const records = await env.store.pendingUsageRecords(NAMESPACE, 1000);
    if (records.length >= count || Date.now() > deadline) return records;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
