/**
 * The session's queries: who is signed in (GET /me; null when signed out), the sign-in methods,
 * and what RBAC lets the user do (GET /me/access, per namespace). Every key is made here.
 */
import { queryOptions } from '@tanstack/react-query';
import { adminApi } from '../api/admin-api.js';
import { ApiError, consoleApi, type Me } from '../api/console-api.js';

export const authKeys = {
  me: () => ['me'] as const,
  methods: () => ['auth-methods'] as const,
  access: (namespace?: string) => ['access', namespace ?? ''] as const,
};

export const authQueries = {
  /** The signed-in user; null when the console answers 401 (signed out). */
  me: () =>
    queryOptions({
      queryKey: authKeys.me(),
      queryFn: async (): Promise<Me | null> => {
        try {
          return await consoleApi.me();
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) return null;
          throw error;
        }
      },
    }),
  methods: () => queryOptions({ queryKey: authKeys.methods(), queryFn: consoleApi.methods }),
  /** Cached for a minute: links and buttons follow it, the API server still decides each call. */
  access: (namespace?: string) =>
    queryOptions({
      queryKey: authKeys.access(namespace),
      queryFn: () => adminApi.access(namespace),
      staleTime: 60_000,
    }),
};
