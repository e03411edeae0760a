/**
 * Saving an administered object: create or replace, then refresh the list and go back to it with
 * a "saved" note; a refusal stays on the form (which keeps its input).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { adminApi, type AdminKind, type AdminObject, type AdminWrite } from '../api/admin-api.js';
import { useSession } from '../api/use-session.js';

export function adminListKey(kind: AdminKind) {
  return ['admin', kind] as const;
}

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
      await client.invalidateQueries({ queryKey: adminListKey(kind) });
      if (kind === 'groups') await client.invalidateQueries({ queryKey: ['groups'] });
      if (kind === 'accounts') await client.invalidateQueries({ queryKey: ['accounts'] });
      const name = kind === 'accounts' ? (saved.namespace ?? saved.name) : saved.name;
      navigate(`/${kind}?${editing ? 'saved' : 'created'}=${encodeURIComponent(name)}`);
    },
  });
}
