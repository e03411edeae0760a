/** Charges a cost to a key as a settled call would, with its plan and member windows. */
import { randomUUID } from 'node:crypto';
import { computeCalendarEnds } from '../../store/compute-calendar-ends.js';
import type { KeyPolicy, Store } from '../../store/store.js';
import { makeRecord } from './ledger/make-record.js';

export async function spendWithBudget(
  store: Store,
  charge: { policy: KeyPolicy; costNano: number; plan: boolean; owner?: string },
): Promise<void> {
  const { policy, costNano } = charge;
  const requestId = `spend-${randomUUID()}`;
  const now = Date.now();
  const result = await store.settle({
    requestId,
    namespace: policy.namespace,
    keyUid: policy.keyUid,
    costNano,
    now,
    record: makeRecord({
      requestId,
      time: now,
      namespace: policy.namespace,
      keyUid: policy.keyUid,
      costNano,
      ...(charge.owner === undefined ? {} : { owner: charge.owner }),
    }),
    budget: {
      plan: charge.plan,
      owner: charge.owner ?? null,
      calendar: computeCalendarEnds(now, 'UTC'),
    },
  });
  if (!result.applied) throw new Error('spend not applied');
}
