/** What the signed-in user may do (GET /me/access), cached per namespace for the session. */
import { useQuery } from '@tanstack/react-query';
import { adminApi, type Access } from '../api/admin-api.js';

export function accessKey(namespace?: string) {
  return ['access', namespace ?? ''] as const;
}

/** undefined while loading (and after a failure: links and buttons stay hidden). */
export function useAccess(namespace?: string): Access | undefined {
  const query = useQuery({
    queryKey: accessKey(namespace),
    queryFn: () => adminApi.access(namespace),
    staleTime: 60_000,
  });
  return query.data;
}
