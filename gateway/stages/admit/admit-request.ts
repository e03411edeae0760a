/** The one `store.admit()` call and the mapping of its refusals to catalogue errors. */
import { GatewayError } from '../../errors/gateway-error.js';
import type { AdmissionRefusal, LeaseCharge, SpendStore } from '../../../store/store.js';
import type { CalendarEnds } from '../../../store/budget-windows.js';
import {
  refuseMissingPolicy,
  type PolicyMarkerReader,
} from '../authorize/refuse-missing-policy.js';
import type { AuthorizedPolicy } from '../authorize/authorize-request.js';
import { isModelAllowed } from '../../models/match-model-globs.js';
import { isSourceDenied } from '../../../network/match-source-ranges.js';

export interface AdmitInput {
  policy: AuthorizedPolicy;
  requestId: string;
  callerIp: string;
  /** Null when the request names no model (then no model rule applies). */
  model: string | null;
  estimateNano: number;
  now: number;
  leaseMs: number;
  /** No price for the model: refused at the model rule's place (last), as TG_MODEL_NOT_PRICED. */
  modelNotPriced?: boolean;
  /** Charged as an estimated record if the lease ends unsettled (describe-lease-charge.ts). */
  charge?: LeaseCharge;
  /** Sticky sessions: the session identity's digest and its binding TTL. */
  session?: { id: string; ttlMs: number };
  /**
   * The calendar window ends at a time in a time zone (null = the gateway's): asked only for a key
   * whose account has a plan or member limits (compute-calendar-ends.ts).
   */
  calendarEnds?: CalendarEndsAt;
}

export type CalendarEndsAt = (now: number, timeZone: string | null) => CalendarEnds;

/** What the settlement charges besides the key: the plan's windows and the owner's. */
export interface AdmittedBudget {
  plan: boolean;
  owner: string | null;
  timeZone: string | null;
  calendarEnds: CalendarEndsAt;
}

/** The call's session (sticky sessions) and the upstream it is bound to, if any. */
export interface AdmittedSession {
  id: string;
  ttlMs: number;
  boundUpstream: string | null;
}

export interface AdmittedRequest {
  requestId: string;
  policy: AuthorizedPolicy;
  accountUid: string;
  model: string | null;
  admittedAt: number;
  session: AdmittedSession | null;
  /** Absent when the account has no plan and no member limits. */
  budget?: AdmittedBudget;
}

function admittedBudget(input: AdmitInput): AdmittedBudget | undefined {
  const { budget, owner } = input.policy;
  if (budget === undefined || input.calendarEnds === undefined) return undefined;
  return {
    plan: budget.plan,
    owner: budget.memberLimits && owner !== undefined ? owner : null,
    timeZone: budget.timeZone,
    calendarEnds: input.calendarEnds,
  };
}

export function refusalToError(refusal: AdmissionRefusal): GatewayError {
  switch (refusal.reason) {
    case 'QuotaExhausted':
      return new GatewayError('TG_QUOTA_EXHAUSTED');
    case 'WindowExhausted':
      return new GatewayError('TG_WINDOW_EXHAUSTED', {
        detail: `(window: ${refusal.window})`,
        retryAfterSeconds: Math.max(1, Math.ceil(refusal.retryAfterSeconds)),
      });
    case 'SourceDenied':
      return new GatewayError('TG_SOURCE_DENIED');
    case 'NoAccount':
      return new GatewayError('TG_NO_ACCOUNT');
    case 'MemberBudgetExhausted':
      return new GatewayError('TG_MEMBER_BUDGET_EXHAUSTED', {
        detail: `(window: ${refusal.window})`,
        retryAfterSeconds: Math.max(1, Math.ceil(refusal.retryAfterSeconds)),
      });
    case 'SubscriptionExhausted':
      return new GatewayError('TG_SUBSCRIPTION_EXHAUSTED', {
        detail: `(window: ${refusal.window})`,
        retryAfterSeconds: Math.max(1, Math.ceil(refusal.retryAfterSeconds)),
      });
    case 'SubscriptionExpired':
      return new GatewayError('TG_SUBSCRIPTION_EXPIRED');
    case 'BalanceExhausted':
      return new GatewayError('TG_BALANCE_EXHAUSTED');
    case 'AccountConcurrency':
      return new GatewayError('TG_ACCOUNT_CONCURRENCY', { detail: `(limit: ${refusal.limit})` });
    case 'KeyConcurrency':
      return new GatewayError('TG_KEY_CONCURRENCY', { detail: `(limit: ${refusal.limit})` });
    case 'ModelDenied':
      return new GatewayError('TG_MODEL_DENIED');
    case 'CountersRestoring':
      return new GatewayError('TG_COUNTERS_RESTORING', {
        retryAfterSeconds: Math.max(1, refusal.retryAfterSeconds),
      });
  }
}

export function isModelDenied(policy: AuthorizedPolicy, model: string | null): boolean {
  if (model === null) return false;
  if (!isModelAllowed(model, { group: policy.group.modelsAllow, key: policy.modelsAllow })) {
    return true;
  }
  // The plan's globs, for a key whose account has a plan that restricts models.
  const planModels = policy.budget?.planModelsAllow;
  return planModels != null && !isModelAllowed(model, { group: planModels, key: null });
}

export async function admitRequest(
  store: SpendStore & PolicyMarkerReader,
  input: AdmitInput,
): Promise<AdmittedRequest> {
  const { policy } = input;
  const modelDenied = isModelDenied(policy, input.model);
  const budget = admittedBudget(input);
  const result = await store.admit({
    requestId: input.requestId,
    namespace: policy.namespace,
    keyUid: policy.keyUid,
    limits: policy.limits,
    keyMaxConcurrent: policy.maxConcurrent,
    sourceDenied: isSourceDenied(input.callerIp, policy.sourceRanges),
    modelDenied: modelDenied || input.modelNotPriced === true,
    estimateNano: input.estimateNano,
    now: input.now,
    leaseMs: input.leaseMs,
    ...(input.charge === undefined ? {} : { charge: input.charge }),
    ...(input.session === undefined ? {} : { session: input.session }),
    ...(budget === undefined
      ? {}
      : {
          owner: budget.owner ?? undefined,
          calendar: budget.calendarEnds(input.now, budget.timeZone),
        }),
  });
  if (!result.admitted) {
    if (result.refusal.reason === 'ModelDenied' && !modelDenied) {
      throw new GatewayError('TG_MODEL_NOT_PRICED');
    }
    if (result.refusal.reason === 'NoAccount') {
      // The account policy may be missing only because a reload has not written it yet.
      throw await refuseMissingPolicy(store, refusalToError(result.refusal));
    }
    throw refusalToError(result.refusal);
  }
  return {
    requestId: input.requestId,
    policy,
    accountUid: result.accountUid,
    model: input.model,
    admittedAt: input.now,
    session:
      input.session === undefined
        ? null
        : { ...input.session, boundUpstream: result.boundUpstream ?? null },
    ...(budget === undefined ? {} : { budget }),
  };
}
