/** What the signed-in user may do (GET /me/access), cached per namespace for the session. */
import { useQuery } from '@tanstack/react-query';
import type { Access } from '../api/admin-api.js';
import { authQueries } from './auth-queries.js';

/** undefined while loading (and after a failure: links and buttons stay hidden). */
export function useAccess(namespace?: string): Access | undefined {
  return useQuery(authQueries.access(namespace)).data;
}
