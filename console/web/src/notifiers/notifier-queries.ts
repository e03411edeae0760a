/** The notifier queries: the Notifiers of a namespace, or the ClusterNotifiers. */
import { queryOptions } from '@tanstack/react-query';
import { notifierApi, type NotifierScope } from '../api/notifier-api.js';

export const notifierKeys = {
  list: (scope: NotifierScope) =>
    ['notifiers', scope === null ? { cluster: true } : { namespace: scope.namespace }] as const,
};

export const notifierQueries = {
  list: (scope: NotifierScope) =>
    queryOptions({ queryKey: notifierKeys.list(scope), queryFn: () => notifierApi.list(scope) }),
};
