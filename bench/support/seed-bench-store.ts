/**
 * Writes what a bench gateway serves into its store, as the operator would: the fake provider as
 * every platform's upstream, the bench account, and one key per platform. With `allFeatures` every
 * admission feature is set (quota and the three windows, an address allow-list and deny-list, key
 * and account concurrency, an account balance) and OpenAI Chat Completions is forwarded natively,
 * as to a real OpenAI upstream. Used by the gateway child (`serve-bench-gateway.ts`, on the store
 * it serves from) and by the production launch (`start-production-gateway.ts`, on its Redis).
 */
import { randomBytes } from 'node:crypto';
import type { Platform, Store } from '../../store/store.js';
import {
  keyPolicy,
  writeAccount,
  writeUpstreams,
  type Secrets,
} from '../../test/support/gateway-fixture.js';
import type { BenchCredentials, BenchPlatform } from './describe-bench-requests.js';

const LARGE = 1_000_000_000_000_000;
const NAMESPACE = 'bench';
const PLATFORM: Record<BenchPlatform, Platform> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  gemini: 'Gemini',
};

export interface BenchStoreContents {
  secrets: Secrets;
  providerUrl: string;
  keys: BenchCredentials;
  allFeatures: boolean;
  /** The store's key hash (given, so the caller's build, compiled or not, does the hashing). */
  hashKeyValue: (pepper: Buffer, value: string) => string;
}

/** Fresh key values, one per platform. */
export function newBenchKeys(): BenchCredentials {
  const value = (): string => `sk-tg-bench-${randomBytes(16).toString('hex')}`;
  return { anthropic: value(), openai: value(), gemini: value() };
}

export async function seedBenchStore(store: Store, contents: BenchStoreContents): Promise<void> {
  const { secrets, allFeatures: all } = contents;
  await writeUpstreams(store, { secrets, baseURL: contents.providerUrl });
  if (all) {
    const openai = await store.getUpstream('openai-upstream');
    if (openai !== null) {
      await store.putUpstream({
        ...openai,
        digest: `${openai.digest}-native`,
        chatCompletions: 'Native',
      });
    }
  }
  await writeAccount(store, NAMESPACE, all ? { creditNano: LARGE, maxConcurrent: 100_000 } : {});
  for (const [platform, value] of Object.entries(contents.keys) as [BenchPlatform, string][]) {
    const overrides = all
      ? {
          limits: { quotaNano: LARGE, fiveHourNano: LARGE, dailyNano: LARGE, sevenDayNano: LARGE },
          sourceRanges: { allow: ['127.0.0.1/32'], deny: ['10.0.0.0/8'] },
          maxConcurrent: 100_000,
        }
      : {};
    const policy = keyPolicy({ platform: PLATFORM[platform], namespace: NAMESPACE, overrides });
    await store.putKeyPolicy(contents.hashKeyValue(secrets.pepper, value), policy);
  }
}
