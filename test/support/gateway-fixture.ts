/**
 * Test fixture for the gateway: a real store (memory or Redis), policy documents written through
 * the store's writer API (as the operator would), the real fake provider as every upstream, and
 * the gateway built with `build()`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { build, type BuildOptions } from '../../gateway/app.js';
import { createAppConfig, type AppConfig } from '../../gateway/gateway-config.js';
import { createStore } from '../../store/create-store.js';
import { hashKeyValue } from '../../store/hash-key-value.js';
import type { KeyPolicy, UpstreamRef } from '../../store/policy-documents.js';
import { sealCredential } from '../../store/seal-credential.js';
import { emptyUsage } from '../../store/usage-buckets.js';
import { PLATFORMS } from '../../crds/schema/resources.js';
import type { Platform, Store } from '../../store/store.js';
import { DEFAULT_FAKE_CREDENTIAL } from '../../local/simulator/start-fake-provider.js';

export type StoreKind = 'memory' | 'redis';

export async function openStore(kind: StoreKind, redisUrl: string): Promise<Store> {
  if (kind === 'memory') return createStore({});
  return createStore({ redisUrl, prefix: `tg-test-gateway-${randomUUID().slice(0, 8)}:` });
}

export interface Secrets {
  pepper: Buffer;
  credentialKey: Buffer;
}

export function newSecrets(): Secrets {
  return { pepper: randomBytes(32), credentialKey: randomBytes(32) };
}

/**
 * Writes the policy cache's generation marker, as the operator does after its full program: from
 * then on a key, account or upstream the store does not hold is missing (401, 403, 503
 * TG_NO_UPSTREAM), no longer "not back yet" (503 TG_POLICY_RESTORING).
 */
export async function markPoliciesProgrammed(store: Store): Promise<void> {
  const generation = `fixture-${randomUUID()}`;
  await store.beginPolicyReload(generation);
  if (!(await store.commitPolicyReload(generation))) throw new Error('policy marker not written');
}

/**
 * One upstream per platform (all the fake provider), and one group per platform; then the policy
 * marker (markPoliciesProgrammed): what the suites write next is written as operator changes are.
 */
export async function writeUpstreams(
  store: Store,
  options: {
    secrets: Secrets;
    baseURL: string;
    maxConcurrent?: number;
    suffix?: string;
    /** False: no marker (a cache still being programmed). Default true. */
    programmed?: boolean;
  },
): Promise<void> {
  for (const platform of PLATFORMS) {
    const name = `${platform.toLowerCase()}-upstream${options.suffix ?? ''}`;
    const oauth = platform === 'Antigravity';
    // The fake provider's token endpoint accepts its default refresh token.
    const plaintext = JSON.stringify(
      oauth
        ? { refreshToken: 'fake-refresh-token', clientSecret: 'fake-client-secret' }
        : { apiKey: DEFAULT_FAKE_CREDENTIAL },
    );
    await store.putUpstream({
      digest: randomUUID(),
      name,
      platform,
      baseURL: options.baseURL,
      sealedCredential: sealCredential(options.secrets.credentialKey, plaintext),
      credentialType: oauth ? 'GoogleOAuth' : 'APIKey',
      oauth: oauth
        ? {
            clientID: 'fake-client-id',
            tokenURL: `${options.baseURL}/oauth2/token`,
            projectID: 'fake-project',
          }
        : null,
      maxConcurrent: options.maxConcurrent ?? 0,
      modelOverrides: {},
      chatCompletions: 'Translate',
    });
    await store.putGroup({
      digest: randomUUID(),
      name: `${platform.toLowerCase()}-group`,
      platform,
      multiplierText: '1',
      upstreams: [{ name, weight: 1, priority: 0 }],
    });
  }
  if (options.programmed !== false) await markPoliciesProgrammed(store);
}

/** Writes an upstream whose credential is an API key (the fake providers accept any). */
export async function putApiKeyUpstream(
  store: Store,
  secrets: Secrets,
  upstream: {
    name: string;
    platform: Platform;
    baseURL: string;
    maxConcurrent?: number;
    requestsPerMinute?: number;
    modelOverrides?: Record<string, string>;
    responsesWebSocket?: boolean;
  },
): Promise<void> {
  await store.putUpstream({
    digest: randomUUID(),
    name: upstream.name,
    platform: upstream.platform,
    baseURL: upstream.baseURL,
    sealedCredential: sealCredential(
      secrets.credentialKey,
      JSON.stringify({ apiKey: 'fake-upstream-key' }),
    ),
    credentialType: 'APIKey',
    oauth: null,
    maxConcurrent: upstream.maxConcurrent ?? 0,
    ...(upstream.requestsPerMinute === undefined
      ? {}
      : { requestsPerMinute: upstream.requestsPerMinute }),
    modelOverrides: upstream.modelOverrides ?? {},
    chatCompletions: 'Translate',
    ...(upstream.responsesWebSocket === true ? { responsesWebSocket: true as const } : {}),
  });
}

/** POSTs a JSON body with an `x-api-key`, reads the answer to its end: status and request id. */
export async function postWithKey(url: string, apiKey: string, body: string) {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body,
  });
  await response.body.text();
  return {
    status: response.statusCode,
    requestId: String(response.headers['x-tollgate-request-id']),
  };
}

export async function writeAccount(
  store: Store,
  namespace: string,
  options: { creditNano?: number | null; maxConcurrent?: number } = {},
): Promise<void> {
  await store.putAccount(namespace, {
    digest: randomUUID(),
    uid: `acct-${namespace}`,
    namespace,
    creditNano: options.creditNano === undefined ? null : options.creditNano,
    maxConcurrent: options.maxConcurrent ?? 0,
  });
}

export interface KeyOptions {
  platform: Platform;
  namespace: string;
  overrides?: Partial<Omit<KeyPolicy, 'group'>>;
  group?: Partial<NonNullable<KeyPolicy['group']>> | null;
  upstreams?: UpstreamRef[];
}

export function keyPolicy(options: KeyOptions): KeyPolicy {
  const lower = options.platform.toLowerCase();
  const uid = randomUUID();
  return {
    digest: randomUUID(),
    keyUid: uid,
    namespace: options.namespace,
    name: `key-${uid.slice(0, 8)}`,
    state: 'Active',
    suspended: false,
    expiresAt: null,
    limits: { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
    sourceRanges: { allow: [], deny: [] },
    maxConcurrent: 0,
    modelsAllow: null,
    group:
      options.group === null
        ? null
        : {
            name: `${lower}-group`,
            platform: options.platform,
            multiplier: { numerator: 1, denominator: 1 },
            multiplierText: '1',
            upstreams: options.upstreams ?? [{ name: `${lower}-upstream`, weight: 1, priority: 0 }],
            modelsAllow: null,
            priceOverrides: {},
            priceFallback: null,
            ...(options.group ?? {}),
          },
    ...(options.overrides ?? {}),
  };
}

/** Writes a key policy under a fresh key value; returns the value and the policy. */
export async function createKey(
  store: Store,
  secrets: Secrets,
  options: KeyOptions,
): Promise<{ value: string; policy: KeyPolicy }> {
  const value = `sk-tg-${randomBytes(20).toString('hex')}`;
  const policy = keyPolicy(options);
  await store.putKeyPolicy(hashKeyValue(secrets.pepper, value), policy);
  return { value, policy };
}

export function buildGateway(
  store: Store,
  secrets: Secrets,
  options: Partial<Omit<BuildOptions, 'store' | 'config'>> & { config?: Partial<AppConfig> } = {},
): FastifyInstance {
  const { config, ...rest } = options;
  return build({
    store,
    config: createAppConfig(secrets, {
      logLevel: 'silent',
      connectTimeoutMs: 2_000,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
      ...(config ?? {}),
    }),
    ...rest,
  });
}

/** Spends `costNano` on a key through the store's own admit + settle (as a finished request). */
export async function spend(store: Store, policy: KeyPolicy, costNano: number): Promise<void> {
  const requestId = `spend-${randomUUID()}`;
  const now = Date.now();
  const admitted = await store.admit({
    requestId,
    namespace: policy.namespace,
    keyUid: policy.keyUid,
    limits: { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
    keyMaxConcurrent: 0,
    sourceDenied: false,
    modelDenied: false,
    estimateNano: 0,
    now,
    leaseMs: 60_000,
  });
  if (!admitted.admitted) throw new Error(`spend admit refused: ${admitted.refusal.reason}`);
  const result = await store.settle({
    requestId,
    namespace: policy.namespace,
    keyUid: policy.keyUid,
    costNano,
    now,
    record: {
      requestId,
      time: now,
      namespace: policy.namespace,
      accountUid: admitted.accountUid,
      keyUid: policy.keyUid,
      keyName: policy.name,
      group: policy.group?.name ?? '',
      upstream: null,
      platform: policy.group?.platform ?? 'Anthropic',
      model: 'test',
      upstreamModel: 'test',
      usage: emptyUsage(),
      costNano,
      priceVersion: 'test',
      multiplier: '1',
      durationMs: 0,
      timeToFirstByteMs: null,
      status: 200,
      stream: false,
      accuracy: 'exact',
      flags: [],
    },
  });
  if (!result.applied) throw new Error('spend settle not applied');
}

/** Holds a concurrency slot of a key and its account (an admitted request that never settles). */
export async function holdSlot(store: Store, policy: KeyPolicy): Promise<void> {
  const result = await store.admit({
    requestId: `hold-${randomUUID()}`,
    namespace: policy.namespace,
    keyUid: policy.keyUid,
    limits: { quotaNano: 0, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
    keyMaxConcurrent: 0,
    sourceDenied: false,
    modelDenied: false,
    estimateNano: 0,
    now: Date.now(),
    leaseMs: 60_000,
  });
  if (!result.admitted) throw new Error(`hold admit refused: ${result.refusal.reason}`);
}
