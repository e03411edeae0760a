/** The signed-in session (GET /me) in the query cache: undefined while loading, null signed out. */
import { useQuery } from '@tanstack/react-query';
import { ApiError, consoleApi, type Me } from './console-api.js';

export const ME_KEY = ['me'] as const;

export function useSession(): { me: Me | null | undefined; error: Error | null } {
  const query = useQuery({
    queryKey: ME_KEY,
    queryFn: async (): Promise<Me | null> => {
      try {
        return await consoleApi.me();
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
  });
  return { me: query.data, error: query.error };
}
