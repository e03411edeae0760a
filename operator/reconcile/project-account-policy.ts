/** Account -> AccountPolicy, and its status figures from the store's counters. */
import type { Account } from '../../crds/schema/resources.js';
import type { AccountPolicy } from '../../store/policy-documents.js';
import type { AccountCounters } from '../../store/store.js';
import { withDigest } from './compute-digest.js';
import { formatNanoAsUSD, parseOptionalMoneyToNano } from './parse-money.js';

export function projectAccountPolicy(account: Account): AccountPolicy {
  return withDigest({
    uid: account.metadata.uid,
    namespace: account.metadata.namespace ?? '',
    creditNano: parseOptionalMoneyToNano(account.spec.creditUSD),
    maxConcurrent: account.spec.maxConcurrentRequests ?? 0,
  });
}

/** `balanceUSD` is absent when the account has no balance limit. */
export function projectAccountFigures(
  account: Account,
  counters: AccountCounters,
): { spentUSD: string; balanceUSD?: string } {
  const credit = parseOptionalMoneyToNano(account.spec.creditUSD);
  const spentUSD = formatNanoAsUSD(counters.spentNano);
  if (credit === null) return { spentUSD };
  return { spentUSD, balanceUSD: formatNanoAsUSD(credit - counters.spentNano) };
}
