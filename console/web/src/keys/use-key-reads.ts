/**
 * What the key page reads: the key and its usage summary, together (not one after the other).
 * After an action, until `watchUntil`, both are read every 2 s, until the operator and the ledger
 * have caught up; the key also while its Ready report lags (readiness says when).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { keyQueries, type KeyRef } from './key-queries.js';
import { readinessOf } from './key-readiness.js';

export function useKeyReads(ref: KeyRef, watchUntil: number) {
  const watching = () => Date.now() < watchUntil;
  // Read again whenever the page opens (an edit may have changed the quota it reports).
  const usage = useQuery({
    ...keyQueries.usage(ref),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
    refetchInterval: () => (watching() ? 2_000 : 60_000),
  });
  const key = useQuery({
    ...keyQueries.detail(ref),
    // Until the operator reports the key ready (after a create, enable or rotate), ask often.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data === undefined || watching() || readinessOf(data).pending) return 2_000;
      return data.ready.status === 'True' ? 30_000 : 3_000;
    },
  });
  return { key, usage };
}

export type KeyUsageRead = ReturnType<typeof useKeyReads>['usage'];
