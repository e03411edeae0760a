/**
 * The refusals of plans and member budgets (TG_SUBSCRIPTION_EXHAUSTED, TG_SUBSCRIPTION_EXPIRED,
 * TG_MEMBER_BUDGET_EXHAUSTED), each with the account and key that trigger it, for the refusal
 * table run on every platform path (admission-refusals.test.ts).
 */
import { randomUUID } from 'node:crypto';
import type { AccountPolicy, KeyPolicy } from '../../../store/store.js';
import { createKey } from '../../support/gateway-fixture.js';
import { spendWithBudget } from '../../support/spend-with-budget.js';
import type { Rule, RuleContext } from './refusal-rules.js';

const HOUR = 3_600_000;
const NO_CAPS = { FiveHour: 0, Daily: 0, Weekly: 0, Monthly: 0 };

async function budgetKey(
  context: RuleContext,
  setup: { account: Partial<AccountPolicy>; key: Partial<Omit<KeyPolicy, 'group'>> },
) {
  const namespace = `ns-${randomUUID().slice(0, 8)}`;
  await context.store.putAccount(namespace, {
    digest: randomUUID(),
    uid: `acct-${namespace}`,
    namespace,
    creditNano: null,
    maxConcurrent: 0,
    ...setup.account,
  });
  return createKey(context.store, context.secrets, {
    platform: context.platform,
    namespace,
    overrides: setup.key,
  });
}

const planBudget = { plan: true, memberLimits: false, timeZone: null, planModelsAllow: null };

export const budgetRules: Rule[] = [
  {
    name: 'plan window used up',
    code: 'TG_SUBSCRIPTION_EXHAUSTED',
    status: 429,
    forwardedOnly: true,
    key: async (context) => {
      const now = Date.now();
      const plan = {
        planName: 'pro',
        startTime: now - HOUR,
        endTime: null,
        limits: { ...NO_CAPS, Daily: 1_000 },
      };
      const created = await budgetKey(context, { account: { plan }, key: { budget: planBudget } });
      await spendWithBudget(context.store, { policy: created.policy, costNano: 1_000, plan: true });
      return created.value;
    },
  },
  {
    name: 'subscription ended, no balance',
    code: 'TG_SUBSCRIPTION_EXPIRED',
    status: 403,
    forwardedOnly: true,
    key: async (context) => {
      const now = Date.now();
      const plan = {
        planName: 'pro',
        startTime: now - 2 * HOUR,
        endTime: now - HOUR,
        limits: NO_CAPS,
      };
      const created = await budgetKey(context, { account: { plan }, key: { budget: planBudget } });
      return created.value;
    },
  },
  {
    name: 'member budget used up',
    code: 'TG_MEMBER_BUDGET_EXHAUSTED',
    status: 429,
    forwardedOnly: true,
    key: async (context) => {
      const memberLimits = { Daily: 1_000, Weekly: 0, Monthly: 0 };
      const budget = { ...planBudget, plan: false, memberLimits: true };
      const created = await budgetKey(context, {
        account: { memberLimits },
        key: { owner: 'alice', budget },
      });
      // Another key of the same owner spent the budget.
      const other = await createKey(context.store, context.secrets, {
        platform: context.platform,
        namespace: created.policy.namespace,
        overrides: { owner: 'alice', budget },
      });
      await spendWithBudget(context.store, {
        policy: other.policy,
        costNano: 1_000,
        plan: false,
        owner: 'alice',
      });
      return created.value;
    },
  },
];
