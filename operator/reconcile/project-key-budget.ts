/**
 * What a key document carries about its account's plan and member limits: whether either applies
 * (the gateway then passes the calendar window ends and the owner to the admission), the time zone
 * of the calendar windows, and the plan's model globs. Absent when the account has neither, so
 * such keys pay nothing for the feature.
 */
import type { Account, Plan } from '../../crds/schema/resources.js';
import type { KeyPolicy } from '../../store/policy-documents.js';
import { projectMemberLimits, projectPlanPolicy } from './project-account-policy.js';

export function projectKeyBudget(account: Account, plan: Plan | null): KeyPolicy['budget'] | null {
  const planPolicy = projectPlanPolicy(account, plan);
  const memberLimits = projectMemberLimits(account) !== null;
  if (planPolicy === null && !memberLimits) return null;
  return {
    plan: planPolicy !== null,
    memberLimits,
    timeZone: account.spec.timeZone ?? null,
    planModelsAllow: plan?.spec.models?.allow ?? null,
  };
}
