/**
 * The key page's actions: enable, disable or reset the quota (then the key and its usage are
 * watched for a while), rotate (the new value is shown once), delete (back to the keys).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { consoleApi, type KeyAction, type Me } from '../api/console-api.js';
import { keyKeys, type KeyRef } from './key-queries.js';

/** How long the page reads the key and its usage often after an action. */
const WATCH_MS = 30_000;

export function useKeyActions(ref: KeyRef, me: Me) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  // After an action, until this time, the key and its usage are read every 2 s.
  const [watchUntil, setWatchUntil] = useState(0);
  const refresh = () => client.invalidateQueries({ queryKey: keyKeys.list(ref.namespace) });
  const action = useMutation({
    mutationFn: (kind: KeyAction) =>
      consoleApi.keyAction({ ...ref, action: kind, csrfToken: me.csrfToken }),
    onSuccess: async (updated) => {
      client.setQueryData(keyKeys.detail(ref), updated);
      setWatchUntil(Date.now() + WATCH_MS);
      await Promise.all([refresh(), client.invalidateQueries({ queryKey: keyKeys.usage(ref) })]);
    },
  });
  const rotate = useMutation({
    mutationFn: () => consoleApi.rotateKey({ ...ref, csrfToken: me.csrfToken }),
    onSuccess: async (rotated) => {
      // The rotated key (a new spec generation), for the pages opened next.
      client.setQueryData(keyKeys.detail(ref), rotated.key);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => consoleApi.deleteKey({ ...ref, csrfToken: me.csrfToken }),
    onSuccess: async () => {
      await refresh();
      navigate(`/accounts/${ref.namespace}/keys`);
    },
  });
  const busy = action.isPending || rotate.isPending || remove.isPending;
  const error = action.error ?? rotate.error ?? remove.error;
  return { watchUntil, action, rotate, remove, busy, error };
}

export type KeyActions = ReturnType<typeof useKeyActions>;
