/**
 * Upstream policies cached in gateway memory: read once per name; re-read when the group's
 * upstream list changes or the entry is older than `refreshMs` (so a rotated credential shows up
 * without a group change); decrypted only when the `digest` changes. An upstream not found is
 * read again after at most `MISSING_REFRESH_MS`: after the store lost its data the operator writes
 * the upstreams back within seconds, and a group must not stay without them for `refreshMs`.
 */
import { openCredential } from '../../store/seal-credential.js';
import type { UpstreamRef } from '../../store/policy-documents.js';
import type { PolicyReader, UpstreamPolicy } from '../../store/store.js';
import type {
  GoogleOAuthCredential,
  ProviderSettings,
  ResolvedUpstream,
} from '../spec/resolved-upstream.js';
import { openProviderSettings } from './open-provider-settings.js';

/** How long an upstream found missing is believed missing. */
export const MISSING_REFRESH_MS = 1_000;

interface CacheEntry {
  digest: string;
  readAt: number;
  upstream: Omit<ResolvedUpstream, 'weight' | 'priority'> | null;
}

export interface UpstreamCacheOptions {
  store: Pick<PolicyReader, 'getUpstream'>;
  credentialKey: Buffer;
  clock: () => number;
  refreshMs: number;
}

/** The secret from a sealed credential: JSON `{apiKey}`, a JSON string, or the plain text. */
export function credentialSecret(plaintext: string): string {
  try {
    const parsed: unknown = JSON.parse(plaintext);
    if (typeof parsed === 'string') return parsed;
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      for (const field of ['apiKey', 'value', 'key', 'refreshToken']) {
        const value = record[field];
        if (typeof value === 'string') return value;
      }
    }
  } catch {
    // Not JSON: the plaintext is the secret itself.
  }
  return plaintext;
}

/** GoogleOAuth upstreams: the spec's public half plus the sealed `{refreshToken, clientSecret}`. */
function googleOAuthCredential(
  policy: UpstreamPolicy,
  plaintext: string,
): GoogleOAuthCredential | null {
  if (policy.credentialType !== 'GoogleOAuth' || policy.oauth === null) return null;
  let sealed: unknown;
  try {
    sealed = JSON.parse(plaintext);
  } catch {
    return null;
  }
  if (typeof sealed !== 'object' || sealed === null) return null;
  const { refreshToken, clientSecret } = sealed as Record<string, unknown>;
  if (typeof refreshToken !== 'string' || typeof clientSecret !== 'string') return null;
  return { ...policy.oauth, refreshToken, clientSecret };
}

export class UpstreamCache {
  readonly #entries = new Map<string, CacheEntry>();
  /** The upstream names last seen per group, to notice list changes. */
  readonly #groupLists = new Map<string, string>();
  /** Per group: the list last built, for the same refs, until its oldest entry needs a re-read. */
  readonly #groupResolved = new Map<
    string,
    {
      refs: readonly UpstreamRef[];
      answer: Promise<readonly ResolvedUpstream[]>;
      freshUntil: number;
    }
  >();
  readonly #options: UpstreamCacheOptions;

  constructor(options: UpstreamCacheOptions) {
    this.#options = options;
  }

  /**
   * The group's upstreams, in `refs` order, without the unknown ones. Called with the same `refs`
   * (the key policy's list, itself cached) while every entry is fresh, it answers the list it built
   * last without rebuilding it; the list is shared and must not be changed.
   */
  resolve(group: string, refs: readonly UpstreamRef[]): Promise<readonly ResolvedUpstream[]> {
    const built = this.#groupResolved.get(group);
    if (built !== undefined && built.refs === refs && this.#options.clock() < built.freshUntil) {
      return built.answer;
    }
    return this.#build(group, refs);
  }

  async #build(group: string, refs: readonly UpstreamRef[]): Promise<readonly ResolvedUpstream[]> {
    const names = refs.map((ref) => ref.name).join('\n');
    const changed = this.#groupLists.get(group) !== names;
    this.#groupLists.set(group, names);
    const resolved = await Promise.all(refs.map((ref) => this.#resolveOne(ref, changed)));
    const list = resolved.filter((upstream): upstream is ResolvedUpstream => upstream !== null);
    let freshUntil = Infinity;
    for (const ref of refs) {
      const entry = this.#entries.get(ref.name);
      freshUntil = Math.min(
        freshUntil,
        entry === undefined ? -Infinity : entry.readAt + this.#lifetime(entry),
      );
    }
    this.#groupResolved.set(group, { refs, answer: Promise.resolve(list), freshUntil });
    return list;
  }

  #lifetime(entry: CacheEntry): number {
    const { refreshMs } = this.#options;
    return entry.upstream === null ? Math.min(refreshMs, MISSING_REFRESH_MS) : refreshMs;
  }

  /** Forget one upstream (for example after the upstream refused its credential). */
  invalidate(name: string): void {
    this.#entries.delete(name);
    this.#groupResolved.clear();
  }

  async #resolveOne(ref: UpstreamRef, force: boolean): Promise<ResolvedUpstream | null> {
    const now = this.#options.clock();
    let entry = this.#entries.get(ref.name);
    if (force || entry === undefined || now - entry.readAt >= this.#lifetime(entry)) {
      const policy = await this.#options.store.getUpstream(ref.name);
      entry = this.#toEntry(policy, entry, now);
      this.#entries.set(ref.name, entry);
    }
    if (entry.upstream === null) return null;
    return { ...entry.upstream, weight: ref.weight, priority: ref.priority };
  }

  #toEntry(policy: UpstreamPolicy | null, previous: CacheEntry | undefined, now: number) {
    if (policy === null) return { digest: '', readAt: now, upstream: null };
    if (previous?.digest === policy.digest) return { ...previous, readAt: now };
    const plaintext = openCredential(this.#options.credentialKey, policy.sealedCredential);
    let provider: ProviderSettings;
    try {
      provider = openProviderSettings(policy, plaintext);
    } catch {
      // A credential that does not fit its provider: the upstream is skipped until it changes.
      return { digest: policy.digest, readAt: now, upstream: null };
    }
    // Cloud providers pick their own address (`providers/`); Direct ones send to baseURL.
    const url = provider.kind === 'Direct' ? new URL(policy.baseURL) : null;
    return {
      digest: policy.digest,
      readAt: now,
      upstream: {
        name: policy.name,
        platform: policy.platform,
        origin: url === null ? '' : url.origin,
        basePath: url === null ? '' : url.pathname.replace(/\/+$/, ''),
        credential: provider.kind === 'Direct' ? credentialSecret(plaintext) : '',
        oauth: googleOAuthCredential(policy, plaintext),
        maxConcurrent: policy.maxConcurrent,
        requestsPerMinute: policy.requestsPerMinute ?? 0,
        modelOverrides: policy.modelOverrides,
        chatCompletions: policy.chatCompletions,
        responsesWebSocket: policy.responsesWebSocket === true && provider.kind === 'Direct',
        provider,
        priceOverrides: policy.priceOverrides ?? null,
      },
    };
  }
}
