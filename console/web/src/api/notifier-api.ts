/**
 * The notifier calls: a namespace's Notifiers (/accounts/{namespace}/notifiers) and, for
 * administrators, the ClusterNotifiers (/admin/clusternotifiers). A write may carry the Secret value
 * (signing secret or Slack URL), which the server puts in a new Secret and never returns.
 */
import type { z } from 'zod';
import type {
  createNotifierSchema,
  editNotifierSchema,
  notifierListSchema,
  notifierViewSchema,
} from '../../../server/routes/notifier-schemas.js';
import { callApi, segment } from './console-api.js';

export type NotifierView = z.output<typeof notifierViewSchema>;
export type CreateNotifier = z.input<typeof createNotifierSchema>;
export type EditNotifier = z.input<typeof editNotifierSchema>;

/** A namespace's Notifiers, or (null) the ClusterNotifiers. */
export type NotifierScope = { namespace: string } | null;

function basePath(scope: NotifierScope): string {
  return scope === null
    ? '/admin/clusternotifiers'
    : `/accounts/${segment(scope.namespace)}/notifiers`;
}

export const notifierApi = {
  list: (scope: NotifierScope) => callApi<z.output<typeof notifierListSchema>>(basePath(scope)),
  create: (input: { scope: NotifierScope; body: CreateNotifier; csrfToken: string }) =>
    callApi<NotifierView>(basePath(input.scope), {
      method: 'POST',
      body: input.body,
      csrfToken: input.csrfToken,
    }),
  update: (input: { scope: NotifierScope; name: string; body: EditNotifier; csrfToken: string }) =>
    callApi<NotifierView>(`${basePath(input.scope)}/${segment(input.name)}`, {
      method: 'PUT',
      body: input.body,
      csrfToken: input.csrfToken,
    }),
  remove: (input: { scope: NotifierScope; name: string; csrfToken: string }) =>
    callApi<unknown>(`${basePath(input.scope)}/${segment(input.name)}`, {
      method: 'DELETE',
      csrfToken: input.csrfToken,
    }),
};
