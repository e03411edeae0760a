/**
 * Key material, the cert-manager way: read the Secret the ApiKey names; create it with a generated
 * value when it is missing; never write to a Secret someone else made. Returns the hash of the value
 * (the value itself leaves this file only inside the Secret the operator creates).
 */
import { V1ObjectMeta, V1OwnerReference, V1Secret } from '@kubernetes/client-node';
import {
  API_KEY_NAME_LABEL,
  API_KEY_SECRET_TYPE,
  API_GROUP,
  API_VERSION,
  type ApiKey,
} from '../crds/schema/resources.js';
import { hashKeyValue } from '../store/hash-key-value.js';
import type { OperatorContext } from './operator-context.js';
import { creationTime, decodeSecretData, type SecretObject } from './read-resource.js';
import type { KeyMaterial } from './reconcile/decide-key-state.js';
import {
  formatKeyHint,
  generateKeyValue,
  validateKeyValue,
} from './reconcile/validate-key-value.js';
import type { CachedObject } from './watch-resources.js';

export function secretKeyOf(apiKey: ApiKey): string {
  return apiKey.spec.secretKey ?? 'apiKey';
}

export function keySecretName(apiKey: ApiKey): string {
  return apiKey.spec.secretName ?? `${apiKey.metadata.name}-key`;
}

type SecretRead =
  | { status: 'Missing' }
  | { status: 'Value'; value: string }
  | { status: 'InvalidKey' | 'SecretConflict'; message: string; value: string | null };

function ownerOf(secret: SecretObject): { uid: string; name?: string } | undefined {
  return secret.metadata?.ownerReferences?.find(
    (owner) => owner.controller === true && owner.kind === 'ApiKey',
  );
}

/** Whether the owning ApiKey still exists: by its name when the reference has one (one lookup). */
function ownerExists(
  context: OperatorContext,
  owner: { uid: string; name?: string },
  namespace: string,
): boolean {
  if (owner.name !== undefined) {
    return context.cache.get('ApiKey', owner.name, namespace)?.metadata.uid === owner.uid;
  }
  return context.cache.list('ApiKey', namespace).some((other) => other.metadata.uid === owner.uid);
}

/** Reads (never writes) the key's Secret from the cache. */
function readKeySecret(context: OperatorContext, apiKey: ApiKey): SecretRead {
  const namespace = apiKey.metadata.namespace ?? '';
  const secretName = keySecretName(apiKey);
  const secret = context.cache.get('Secret', secretName, namespace) as SecretObject | undefined;
  if (secret === undefined) return { status: 'Missing' };
  const label = secret.metadata?.labels?.[API_KEY_NAME_LABEL];
  const owner = ownerOf(secret);
  const foreignOwner =
    owner !== undefined &&
    owner.uid !== apiKey.metadata.uid &&
    ownerExists(context, owner, namespace);
  if ((label !== undefined && label !== apiKey.metadata.name) || foreignOwner) {
    return {
      status: 'SecretConflict',
      message: `Secret ${secretName} was created by the operator for another ApiKey`,
      value: null,
    };
  }
  const value = decodeSecretData(secret)[secretKeyOf(apiKey)];
  if (value === undefined || value === '') {
    return {
      status: 'InvalidKey',
      message: `Secret ${secretName} has no value under '${secretKeyOf(apiKey)}'`,
      value: null,
    };
  }
  const check = validateKeyValue(value);
  if (!check.valid) {
    return { status: 'InvalidKey', message: `Secret ${secretName}: ${check.message}`, value };
  }
  return { status: 'Value', value };
}

async function createKeySecret(context: OperatorContext, apiKey: ApiKey): Promise<string> {
  const value = generateKeyValue();
  const owner = Object.assign(new V1OwnerReference(), {
    apiVersion: `${API_GROUP}/${API_VERSION}`,
    kind: 'ApiKey',
    name: apiKey.metadata.name,
    uid: apiKey.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  });
  const metadata = Object.assign(new V1ObjectMeta(), {
    name: keySecretName(apiKey),
    namespace: apiKey.metadata.namespace ?? '',
    labels: { [API_KEY_NAME_LABEL]: apiKey.metadata.name },
    ownerReferences: [owner],
  });
  const body = Object.assign(new V1Secret(), {
    apiVersion: 'v1',
    kind: 'Secret',
    type: API_KEY_SECRET_TYPE,
    metadata,
    stringData: { [secretKeyOf(apiKey)]: value },
  });
  const id = `${metadata.namespace}/${metadata.name}`;
  context.ownSecretCreations.add(id);
  try {
    await context.api.createSecret(metadata.namespace, body);
  } catch (error) {
    // The reconcile fails and runs again; it reads whatever Secret arrives then.
    context.ownSecretCreations.delete(id);
    throw error;
  }
  context.logger.debug(
    {
      namespace: apiKey.metadata.namespace,
      apiKey: apiKey.metadata.name,
      secret: metadata.name,
    },
    'generated key Secret',
  );
  return value;
}

/** Earlier keys win a shared value: by creationTimestamp, then namespace/name. */
function isEarlier(other: CachedObject, apiKey: ApiKey): boolean {
  const mine = Date.parse(apiKey.metadata.creationTimestamp);
  const theirs = creationTime(other);
  if (theirs !== mine) return theirs < mine;
  const otherName = `${other.metadata.namespace ?? ''}/${other.metadata.name}`;
  return otherName < `${apiKey.metadata.namespace ?? ''}/${apiKey.metadata.name}`;
}

function findEarlierDuplicate(
  context: OperatorContext,
  options: { apiKey: ApiKey; hash: string; hashOf: (object: CachedObject) => string | null },
): CachedObject | undefined {
  const candidates = context.keyHashIndex.keysWithHash(options.hash, {
    keys: () => context.cache.list('ApiKey'),
    get: (namespace, name) => context.cache.get('ApiKey', name, namespace),
    hashOf: options.hashOf,
  });
  return candidates.find(
    (other) =>
      other.metadata.uid !== options.apiKey.metadata.uid &&
      other.metadata.deletionTimestamp === undefined &&
      isEarlier(other, options.apiKey),
  );
}

export interface ResolveOptions {
  apiKey: ApiKey;
  /** Reads another key's usable hash (for the duplicate check); null when it has none. */
  hashOf: (object: CachedObject) => string | null;
}

/**
 * The key's material from the cache alone (nothing is created): null when its Secret does not exist
 * yet (the reconcile creates it; the bulk reload leaves the key to that reconcile).
 */
export function readKeyMaterial(
  context: OperatorContext,
  options: ResolveOptions,
): KeyMaterial | null {
  const read = readKeySecret(context, options.apiKey);
  return read.status === 'Missing' ? null : materialOf(context, { ...options, read });
}

function materialOf(
  context: OperatorContext,
  options: ResolveOptions & { read: Exclude<SecretRead, { status: 'Missing' }>; generated?: true },
): KeyMaterial {
  const { apiKey, read } = options;
  if (read.status !== 'Value') {
    const hash = read.value === null ? null : hashKeyValue(context.pepper, read.value);
    return { status: read.status, message: read.message, hash };
  }
  const hash = hashKeyValue(context.pepper, read.value);
  const earlier = findEarlierDuplicate(context, { apiKey, hash, hashOf: options.hashOf });
  if (earlier !== undefined) {
    const where =
      earlier.metadata.namespace === apiKey.metadata.namespace
        ? `ApiKey ${earlier.metadata.name}`
        : 'an ApiKey in another namespace';
    return {
      status: 'DuplicateKey',
      message: `the key value is already used by ${where}`,
      hash: null,
    };
  }
  return options.generated === true
    ? { status: 'Found', hash, hint: formatKeyHint(read.value), generated: true }
    : { status: 'Found', hash, hint: formatKeyHint(read.value) };
}

export async function resolveKeyMaterial(
  context: OperatorContext,
  options: ResolveOptions,
): Promise<KeyMaterial> {
  const found = readKeyMaterial(context, options);
  if (found !== null) return found;
  if (options.apiKey.metadata.deletionTimestamp !== undefined) {
    return { status: 'Pending', message: 'the key is being deleted' };
  }
  const value = await createKeySecret(context, options.apiKey);
  return materialOf(context, { ...options, read: { status: 'Value', value }, generated: true });
}

/**
 * The hash a key is served under, read from the cache only (no Secret is created). With
 * `includeInvalid`, also the hash of an invalid value (its document refuses with InvalidKey).
 */
export function usableKeyHash(
  context: OperatorContext,
  object: CachedObject,
  includeInvalid = false,
): string | null {
  const raw = object as CachedObject & { spec?: { secretName?: string; secretKey?: string } };
  const apiKey = {
    metadata: {
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      uid: object.metadata.uid,
    },
    spec: { secretName: raw.spec?.secretName, secretKey: raw.spec?.secretKey ?? 'apiKey' },
  } as unknown as ApiKey;
  const read = readKeySecret(context, apiKey);
  if (read.status === 'Value') return hashKeyValue(context.pepper, read.value);
  if (includeInvalid && read.status === 'InvalidKey' && read.value !== null) {
    return hashKeyValue(context.pepper, read.value);
  }
  return null;
}
