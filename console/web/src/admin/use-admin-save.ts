/**
 * Saving an administered object: create or replace, then refresh the list and go back to it with
 * a "saved" note; a refusal stays on the form (which keeps its input).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { adminApi, type AdminKind, type AdminObject, type AdminWrite } from '../api/admin-api.js';
import { useSession } from '../auth/use-session.js';
import { keyKeys } from '../keys/key-queries.js';
import { accountKeys } from '../shell/account-queries.js';
import { adminKeys } from './admin-queries.js';

export function useAdminSave(kind: AdminKind, editing: boolean) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const { me } = useSession();
  return useMutation({
    mutationFn: (input: { name: string; body: AdminWrite }): Promise<AdminObject> => {
      const csrfToken = me?.csrfToken ?? '';
      return editing
        ? adminApi.update({ kind, name: input.name, body: input.body, csrfToken })
        : adminApi.create({ kind, name: input.name, body: input.body, csrfToken });
    },
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: adminKeys.list(kind) });
      if (kind === 'groups') await client.invalidateQueries({ queryKey: keyKeys.groups() });
      if (kind === 'accounts') {
        await client.invalidateQueries({ queryKey: accountKeys.list() });
      }
      const name = kind === 'accounts' ? (saved.namespace ?? saved.name) : saved.name;
      navigate(`/${kind}?${editing ? 'saved' : 'created'}=${encodeURIComponent(name)}`);
    },
  });
}
