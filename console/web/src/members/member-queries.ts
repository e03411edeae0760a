/** The members queries: spend per owner of one namespace (every owner, or only the user's own). */
import { queryOptions } from '@tanstack/react-query';
import { memberApi } from '../api/member-api.js';

export const memberKeys = {
  spend: (namespace: string) => ['member-spend', namespace] as const,
};

export const memberQueries = {
  spend: (namespace: string) =>
    queryOptions({
      queryKey: memberKeys.spend(namespace),
      queryFn: () => memberApi.spend(namespace),
    }),
};
