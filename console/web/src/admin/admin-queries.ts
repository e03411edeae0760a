/** The administration's queries: the Groups, Upstreams or Accounts as listed under /admin. */
import { queryOptions } from '@tanstack/react-query';
import { adminApi, type AdminKind } from '../api/admin-api.js';

export const adminKeys = {
  list: (kind: AdminKind) => ['admin', kind] as const,
};

export const adminQueries = {
  list: (kind: AdminKind) =>
    queryOptions({ queryKey: adminKeys.list(kind), queryFn: () => adminApi.list(kind) }),
};
