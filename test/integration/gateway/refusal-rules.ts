/** The refusal rules (and combined conditions) with the key setup that triggers each one. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Platform, Store } from '../../../store/store.js';
import {
  createKey,
  holdSlot,
  spend,
  writeAccount,
  type KeyOptions,
  type Secrets,
} from '../../support/gateway-fixture.js';
import type { Shape } from './refusal-routes.js';

export interface RuleContext {
  store: Store;
  secrets: Secrets;
  platform: Platform;
  otherPlatform: Platform;
}

export interface Rule {
  name: string;
  code: string;
  status: number;
  forwardedOnly: boolean;
  key: (context: RuleContext) => Promise<string | null>;
}

export async function accountKey(
  context: RuleContext,
  options: Partial<KeyOptions> & {
    account?: { creditNano?: number | null; maxConcurrent?: number } | null;
  } = {},
) {
  const namespace = `ns-${randomUUID().slice(0, 8)}`;
  if (options.account !== null) await writeAccount(context.store, namespace, options.account ?? {});
  return createKey(context.store, context.secrets, {
    platform: options.platform ?? context.platform,
    namespace,
    ...(options.overrides !== undefined ? { overrides: options.overrides } : {}),
    ...(options.group !== undefined ? { group: options.group } : {}),
  });
}

const past = Date.now() - 60_000;
const notHere = { allow: ['192.0.2.0/24'], deny: [] };
const keyOf = (created: { value: string }) => created.value;

export const rules: Rule[] = [
  {
    name: 'missing key',
    code: 'TG_KEY_MISSING',
    status: 401,
    forwardedOnly: false,
    key: () => Promise.resolve(null),
  },
  {
    name: 'unknown key',
    code: 'TG_KEY_UNKNOWN',
    status: 401,
    forwardedOnly: false,
    key: () => Promise.resolve('sk-tg-unknown-0123456789'),
  },
  ...(['NoGroup', 'GroupNotFound', 'GroupNotPermitted'] as const).map((state) => ({
    name: `state ${state}`,
    code: 'TG_KEY_NO_GROUP',
    status: 403,
    forwardedOnly: false,
    key: async (context: RuleContext) =>
      keyOf(await accountKey(context, { overrides: { state }, group: null })),
  })),
  ...(['InvalidKey', 'SecretConflict', 'DuplicateKey'] as const).map((state) => ({
    name: `state ${state}`,
    code: 'TG_KEY_INVALID',
    status: 401,
    forwardedOnly: false,
    key: async (context: RuleContext) =>
      keyOf(await accountKey(context, { overrides: { state }, group: null })),
  })),
  {
    name: 'platform mismatch',
    code: 'TG_PLATFORM_MISMATCH',
    status: 403,
    forwardedOnly: false,
    key: async (context) => keyOf(await accountKey(context, { platform: context.otherPlatform })),
  },
  {
    name: 'suspended',
    code: 'TG_KEY_SUSPENDED',
    status: 403,
    forwardedOnly: false,
    key: async (context) => keyOf(await accountKey(context, { overrides: { suspended: true } })),
  },
  {
    name: 'expired',
    code: 'TG_KEY_EXPIRED',
    status: 403,
    forwardedOnly: false,
    key: async (context) => keyOf(await accountKey(context, { overrides: { expiresAt: past } })),
  },
  {
    name: 'quota used up',
    code: 'TG_QUOTA_EXHAUSTED',
    status: 429,
    forwardedOnly: true,
    key: async (context) => {
      const created = await accountKey(context, {
        overrides: { limits: { quotaNano: 1000, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 } },
      });
      await spend(context.store, created.policy, 1000);
      return created.value;
    },
  },
  {
    name: 'five-hour window used up',
    code: 'TG_WINDOW_EXHAUSTED',
    status: 429,
    forwardedOnly: true,
    key: async (context) => {
      const created = await accountKey(context, {
        overrides: { limits: { quotaNano: 0, fiveHourNano: 500, dailyNano: 0, sevenDayNano: 0 } },
      });
      await spend(context.store, created.policy, 500);
      return created.value;
    },
  },
  {
    name: 'IP not in allow list',
    code: 'TG_SOURCE_DENIED',
    status: 403,
    forwardedOnly: false,
    key: async (context) =>
      keyOf(await accountKey(context, { overrides: { sourceRanges: notHere } })),
  },
  {
    name: 'IP in deny list',
    code: 'TG_SOURCE_DENIED',
    status: 403,
    forwardedOnly: false,
    key: async (context) =>
      keyOf(
        await accountKey(context, {
          overrides: { sourceRanges: { allow: [], deny: ['127.0.0.0/8', '::1'] } },
        }),
      ),
  },
  {
    name: 'no account',
    code: 'TG_NO_ACCOUNT',
    status: 403,
    forwardedOnly: true,
    key: async (context) => keyOf(await accountKey(context, { account: null })),
  },
  {
    name: 'no credit',
    code: 'TG_BALANCE_EXHAUSTED',
    status: 429,
    forwardedOnly: true,
    key: async (context) => keyOf(await accountKey(context, { account: { creditNano: 0 } })),
  },
  {
    name: 'account concurrency',
    code: 'TG_ACCOUNT_CONCURRENCY',
    status: 429,
    forwardedOnly: true,
    key: async (context) => {
      const created = await accountKey(context, { account: { maxConcurrent: 1 } });
      await holdSlot(context.store, created.policy);
      return created.value;
    },
  },
  {
    name: 'key concurrency',
    code: 'TG_KEY_CONCURRENCY',
    status: 429,
    forwardedOnly: true,
    key: async (context) => {
      const created = await accountKey(context, { overrides: { maxConcurrent: 1 } });
      await holdSlot(context.store, created.policy);
      return created.value;
    },
  },
  {
    name: 'model denied by group',
    code: 'TG_MODEL_DENIED',
    status: 403,
    forwardedOnly: true,
    key: async (context) =>
      keyOf(await accountKey(context, { group: { modelsAllow: ['no-such-*'] } })),
  },
  {
    name: 'model denied by key',
    code: 'TG_MODEL_DENIED',
    status: 403,
    forwardedOnly: true,
    key: async (context) =>
      keyOf(await accountKey(context, { overrides: { modelsAllow: ['no-such-*'] } })),
  },
  // Combined conditions: the earlier rule in the order wins.
  {
    name: 'expired and over quota -> expired',
    code: 'TG_KEY_EXPIRED',
    status: 403,
    forwardedOnly: false,
    key: async (context) => {
      const created = await accountKey(context, {
        overrides: {
          expiresAt: past,
          limits: { quotaNano: 10, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
        },
      });
      await spend(context.store, created.policy, 10);
      return created.value;
    },
  },
  {
    name: 'suspended on the wrong platform -> platform',
    code: 'TG_PLATFORM_MISMATCH',
    status: 403,
    forwardedOnly: false,
    key: async (context) =>
      keyOf(
        await accountKey(context, {
          platform: context.otherPlatform,
          overrides: { suspended: true },
        }),
      ),
  },
  {
    name: 'over quota from a denied IP -> quota',
    code: 'TG_QUOTA_EXHAUSTED',
    status: 429,
    forwardedOnly: true,
    key: async (context) => {
      const created = await accountKey(context, {
        overrides: {
          sourceRanges: notHere,
          limits: { quotaNano: 10, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
        },
      });
      await spend(context.store, created.policy, 10);
      return created.value;
    },
  },
  {
    name: 'denied IP without account -> IP',
    code: 'TG_SOURCE_DENIED',
    status: 403,
    forwardedOnly: true,
    key: async (context) =>
      keyOf(await accountKey(context, { account: null, overrides: { sourceRanges: notHere } })),
  },
  {
    name: 'no credit and denied model -> balance',
    code: 'TG_BALANCE_EXHAUSTED',
    status: 429,
    forwardedOnly: true,
    key: async (context) =>
      keyOf(
        await accountKey(context, {
          account: { creditNano: 0 },
          overrides: { modelsAllow: ['none'] },
        }),
      ),
  },
  {
    name: 'no group and expired -> no group',
    code: 'TG_KEY_NO_GROUP',
    status: 403,
    forwardedOnly: false,
    key: async (context) =>
      keyOf(
        await accountKey(context, {
          group: null,
          overrides: { state: 'NoGroup', expiresAt: past },
        }),
      ),
  },
];

export function expectShape(
  shape: Shape,
  body: Record<string, unknown>,
  code: string,
  status: number,
): void {
  const error = body.error as Record<string, unknown> | undefined;
  expect(error).toBeDefined();
  switch (shape) {
    case 'anthropic':
      expect(body.type).toBe('error');
      expect(typeof error?.type).toBe('string');
      expect(String(error?.message)).toContain(`[${code}]`);
      break;
    case 'openai':
      expect(error?.code).toBe(code);
      expect(typeof error?.type).toBe('string');
      expect(error?.param).toBeNull();
      break;
    case 'google':
      expect(error?.code).toBe(status);
      expect(String(error?.message)).toContain(`[${code}]`);
      expect(typeof error?.status).toBe('string');
      break;
  }
}
