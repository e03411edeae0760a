/** The signed-in session (GET /me) in the query cache: undefined while loading, null signed out. */
import { useQuery } from '@tanstack/react-query';
import type { Me } from '../api/console-api.js';
import { authQueries } from './auth-queries.js';

export function useSession(): { me: Me | null | undefined; error: Error | null } {
  const query = useQuery(authQueries.me());
  return { me: query.data, error: query.error };
}
