/** Reconciles one ApiKey: finalizer, key material, policy document, quota reset, usage, status. */
import { FINALIZER, RESET_QUOTA_ANNOTATION, type ApiKey } from '../crds/schema/resources.js';
import { finalizeApiKey } from './finalize-api-key.js';
import type { OperatorContext } from './operator-context.js';
import { queueKey, usageReadDue } from './operator-context.js';
import { projectKeyDocument } from './project-key-document.js';
import { readResource } from './read-resource.js';
import {
  mergeKeyUsage,
  projectKeyStatus,
  projectKeyUsage,
  sameStatus,
  type KeyUsage,
} from './reconcile/project-key-status.js';
import { resolveKeyMaterial, usableKeyHash } from './resolve-key-material.js';
import { writeKeyPolicy } from './write-key-policy.js';

async function handleQuotaReset(
  context: OperatorContext,
  apiKey: ApiKey,
): Promise<string | undefined> {
  const token = apiKey.metadata.annotations?.[RESET_QUOTA_ANNOTATION];
  const handled = apiKey.status?.lastHandledQuotaReset;
  if (token === undefined || token === '' || token === handled) return handled;
  const applied = await context.store.resetQuota(
    apiKey.metadata.namespace ?? '',
    apiKey.metadata.uid,
    token,
  );
  context.logger.info(
    { namespace: apiKey.metadata.namespace, apiKey: apiKey.metadata.name, applied },
    'quota reset handled',
  );
  return token;
}

/** Once per refresh round, and at once after a quota reset so `.status` shows the zeroed quota. */
async function readUsage(
  context: OperatorContext,
  request: { apiKey: ApiKey; reset: boolean },
): Promise<KeyUsage | undefined> {
  const { apiKey } = request;
  const current = apiKey.status?.usage;
  if (!usageReadDue(context, apiKey.metadata.uid) && !request.reset) return current;
  const now = context.now();
  const counters = await context.store.keyCounters(
    apiKey.metadata.namespace ?? '',
    apiKey.metadata.uid,
    now,
  );
  context.metrics.observeKeyUsage(apiKey, counters);
  return mergeKeyUsage(current, projectKeyUsage(counters), now);
}

export async function reconcileApiKey(
  context: OperatorContext,
  ref: { namespace: string; name: string },
): Promise<void> {
  const objectKey = `${ref.namespace}/${ref.name}`;
  const object = context.cache.get('ApiKey', ref.name, ref.namespace);
  if (object === undefined) {
    await finalizeApiKey(context, { objectKey, apiKey: null });
    return;
  }
  const read = readResource('ApiKey', object);
  if (!read.ok) {
    context.logger.warn({ apiKey: objectKey, error: read.message }, 'ApiKey spec does not parse');
    return;
  }
  const apiKey = read.resource;
  if (apiKey.metadata.deletionTimestamp !== undefined) {
    await finalizeApiKey(context, { objectKey, apiKey });
    return;
  }
  const finalizers = apiKey.metadata.finalizers ?? [];
  if (!finalizers.includes(FINALIZER)) {
    await context.api.addFinalizer(
      { kind: 'ApiKey', namespace: ref.namespace, name: ref.name },
      { finalizers, resourceVersion: apiKey.metadata.resourceVersion, finalizer: FINALIZER },
    );
  }
  const material = await resolveKeyMaterial(context, {
    apiKey,
    hashOf: (other) => usableKeyHash(context, other),
  });
  const now = context.now();
  const { decision, expiresAt, hash, policy } = projectKeyDocument(context, {
    apiKey,
    material,
    now,
  });
  const programmed = await writeKeyPolicy(context, {
    objectKey,
    keyUid: apiKey.metadata.uid,
    hash,
    policy,
    fresh: material.status === 'Found' && material.generated === true,
  });
  const lastHandledQuotaReset = await handleQuotaReset(context, apiKey);
  const status = projectKeyStatus({
    current: apiKey.status,
    decision,
    programmed,
    keyHint: material.status === 'Found' ? material.hint : apiKey.status?.keyHint,
    usage: await readUsage(context, {
      apiKey,
      reset: lastHandledQuotaReset !== apiKey.status?.lastHandledQuotaReset,
    }),
    lastHandledQuotaReset,
    generation: apiKey.metadata.generation,
    now,
  });
  if (!sameStatus(status, apiKey.status ?? {})) {
    await context.api.patchStatus(
      { kind: 'ApiKey', namespace: ref.namespace, name: ref.name },
      status,
    );
  }
  if (expiresAt !== null && expiresAt > now) {
    context.queue.addAfter(queueKey('ApiKey', ref.namespace, ref.name), expiresAt - now + 20);
  }
}
