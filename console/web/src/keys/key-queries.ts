/**
 * The keys' queries: a namespace's keys, one key, its usage summary and client configuration, and
 * the Groups a key may join. Pages add their own refresh options to these; every key is made here,
 * and invalidations use the same factories.
 */
import { queryOptions } from '@tanstack/react-query';
import { consoleApi } from '../api/console-api.js';
import { orUnavailable } from '../ui/usage-unavailable.js';

export interface KeyRef {
  namespace: string;
  name: string;
}

export const keyKeys = {
  list: (namespace: string) => ['keys', namespace] as const,
  detail: (ref: KeyRef) => ['key', ref.namespace, ref.name] as const,
  usage: (ref: KeyRef) => ['key-usage', ref.namespace, ref.name] as const,
  clientConfig: (ref: KeyRef) => ['client-config', ref.namespace, ref.name] as const,
  groups: () => ['groups'] as const,
};

export const keyQueries = {
  list: (namespace: string) =>
    queryOptions({ queryKey: keyKeys.list(namespace), queryFn: () => consoleApi.keys(namespace) }),
  detail: (ref: KeyRef) =>
    queryOptions({
      queryKey: keyKeys.detail(ref),
      queryFn: () => consoleApi.key({ namespace: ref.namespace, name: ref.name }),
    }),
  /** "unavailable" when the usage ledger cannot be read (a result, not a failure). */
  usage: (ref: KeyRef) =>
    queryOptions({
      queryKey: keyKeys.usage(ref),
      queryFn: () =>
        orUnavailable(consoleApi.keyUsage({ namespace: ref.namespace, name: ref.name })),
    }),
  clientConfig: (ref: KeyRef) =>
    queryOptions({
      queryKey: keyKeys.clientConfig(ref),
      queryFn: () => consoleApi.clientConfig({ namespace: ref.namespace, name: ref.name }),
    }),
  groups: () => queryOptions({ queryKey: keyKeys.groups(), queryFn: consoleApi.groups }),
};
