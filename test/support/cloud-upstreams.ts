/**
 * Test support: cloud upstream policies written to the store as the operator writes them (the
 * provider settings in clear, the credentials union sealed with the gateway's credential key).
 */
import { randomUUID } from 'node:crypto';
import type { ModelPrice } from '../../store/policy-documents.js';
import { sealCredential } from '../../store/seal-credential.js';
import type { Platform, Store } from '../../store/store.js';
import type { ProviderSettings } from '../../gateway/spec/resolved-upstream.js';
import type { Secrets } from './gateway-fixture.js';

type CloudSettings = Exclude<ProviderSettings, { kind: 'Direct' }>;

export async function putCloudUpstream(
  store: Store,
  secrets: Secrets,
  upstream: {
    name: string;
    platform: Platform;
    provider: CloudSettings;
    modelOverrides?: Record<string, string>;
    chatCompletions?: 'Translate' | 'Native';
    priceOverrides?: Record<string, ModelPrice>;
  },
): Promise<void> {
  const { credentials, ...settings } = upstream.provider;
  await store.putUpstream({
    digest: randomUUID(),
    name: upstream.name,
    platform: upstream.platform,
    baseURL: '',
    sealedCredential: sealCredential(secrets.credentialKey, JSON.stringify(credentials)),
    credentialType: credentials.type,
    oauth: null,
    maxConcurrent: 0,
    modelOverrides: upstream.modelOverrides ?? {},
    chatCompletions: upstream.chatCompletions ?? 'Translate',
    provider: settings,
    ...(upstream.priceOverrides === undefined ? {} : { priceOverrides: upstream.priceOverrides }),
  });
}
