/** Keys of one account (namespace), all as the signed-in user: list, read, create, edit, actions. */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { LedgerQueryable } from '../../../ledger/ledger-database.js';
import { queryKeySummary } from '../../../ledger/queries/key-summary.js';
import { RESET_QUOTA_ANNOTATION, type ApiKey } from '../../../crds/schema/resources.js';
import { defineRoute, session, type ApiRoute, type RouteCall } from '../api/api-route.js';
import { audited } from '../audit/audited.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError } from '../console-error.js';
import { patchUnlessRespecified } from '../kubernetes/patch-unless-respecified.js';
import type { UserKube } from '../kubernetes/user-kube.js';
import { keyViewOf, type KeyViewExtra } from '../keys/api-key-view.js';
import { buildCreateSpec, buildEditPatch, nameFromDisplayName } from '../keys/build-key-spec.js';
import { generateKeyValue, randomSuffix } from '../keys/generate-key-value.js';
import { createKeySecret, keySecretName } from '../keys/key-secret.js';
import { keyClientConfigOrNull } from '../keys/read-key-client-config.js';
import { queryTodayCosts } from '../keys/today-costs.js';
import { unlessLedgerUnavailable } from '../usage/guard-ledger.js';
import { readKeyCounters } from '../usage/live-key-counters.js';
import {
  createdKeySchema,
  createKeySchema,
  editKeySchema,
  keyViewSchema,
  type CreateKeyInput,
  type KeyView,
} from '../keys/key-schemas.js';

const emptyBody = z.strictObject({}).optional();

function param(call: RouteCall<unknown, unknown>, name: string): string {
  const value = call.params[name];
  if (value === undefined) throw new ConsoleError('INVALID_INPUT', `missing ${name}`);
  return value;
}

/**
 * A usage figure for the keys routes, read from the ledger only when the user may read the
 * namespace's usage (`get` on its ApiKeys, as the usage API): undefined when they may not,
 * `'unavailable'` without a ledger or when it cannot be reached (the keys are answered all the same).
 */
async function readUsageFigure<T>(
  context: ConsoleContext,
  options: { kube: UserKube; namespace: string; read: (ledger: LedgerQueryable) => Promise<T> },
): Promise<T | 'unavailable' | undefined> {
  const { kube, namespace, read } = options;
  const ledger = context.ledger;
  if (ledger === undefined) return 'unavailable';
  const allowed = await kube.can({
    verb: 'get',
    group: 'tollgate.dev',
    resource: 'apikeys',
    namespace,
  });
  return allowed ? unlessLedgerUnavailable(() => read(ledger)) : undefined;
}

export function keyRoutes(context: ConsoleContext): ApiRoute[] {
  const base = '/accounts/{namespace}/keys';
  const view = (key: ApiKey, extra: Omit<KeyViewExtra, 'now'> = {}): KeyView =>
    keyViewOf(key, { now: context.now(), ...extra });
  /** The live counters of `keys` (one namespace), in one round trip to the store. */
  const countersOf = (namespace: string, keys: readonly ApiKey[]) =>
    readKeyCounters(context.store, {
      namespace,
      keyUids: keys.map((key) => key.metadata.uid),
      now: context.now(),
    });
  /** A key just changed, with its live counters (no today's cost: the page reads its usage). */
  const changedView = async (key: ApiKey): Promise<KeyView> => {
    const counters = await countersOf(key.metadata.namespace ?? '', [key]);
    return view(key, { counters: counters?.get(key.metadata.uid) });
  };
  const ref = (call: RouteCall<unknown, unknown>) => ({
    kind: 'ApiKey' as const,
    namespace: param(call, 'namespace'),
    name: param(call, 'name'),
  });
  const patchAction = (options: {
    verb: string;
    path: string;
    summary: string;
    patch: () => Record<string, unknown>;
  }) =>
    defineRoute({
      method: 'POST',
      path: `${base}/{name}/${options.path}`,
      summary: options.summary,
      tag: 'Keys',
      body: emptyBody,
      response: keyViewSchema,
      handler: (call) => {
        const { kube } = session(call);
        const target = ref(call);
        return audited(
          context,
          { username: kube.identity.username, verb: options.verb, ...target },
          async () => changedView(await kube.mergePatch<ApiKey>(target, options.patch())),
        );
      },
    });
  return [
    defineRoute({
      method: 'GET',
      path: base,
      summary:
        "The account's keys with state, limits, today's cost, and used quota, windows and last use " +
        'from the live counters (see usage.countersSource).',
      tag: 'Keys',
      response: z.object({ items: z.array(keyViewSchema) }),
      handler: async (call) => {
        const { kube } = session(call);
        const namespace = param(call, 'namespace');
        // The list runs beside the access review and today's costs (one query); the live
        // counters of every listed key follow in one round trip to the store.
        const [list, costs] = await Promise.all([
          kube.list<ApiKey>({ kind: 'ApiKey', namespace }),
          readUsageFigure(context, {
            kube,
            namespace,
            read: (ledger) =>
              queryTodayCosts(ledger, {
                namespace,
                now: context.now(),
                timeZone: context.config.timeZone,
              }),
          }),
        ]);
        const counters = await countersOf(namespace, list.items);
        return {
          items: list.items.map((key) =>
            view(key, {
              todayCost: costs instanceof Map ? (costs.get(key.metadata.uid) ?? 0) : costs,
              counters: counters?.get(key.metadata.uid),
            }),
          ),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/{name}`,
      summary: 'One key (never its value).',
      tag: 'Keys',
      response: keyViewSchema,
      handler: async (call) => {
        const { kube } = session(call);
        const key = await kube.get<ApiKey>(ref(call));
        const namespace = key.metadata.namespace ?? '';
        const [today, counters] = await Promise.all([
          readUsageFigure(context, {
            kube,
            namespace,
            read: async (ledger) => {
              const summary = await queryKeySummary(ledger, {
                namespace,
                keyUid: key.metadata.uid,
                now: context.now(),
                timeZone: context.config.timeZone,
                days: 1,
              });
              return summary.today.costNano;
            },
          }),
          countersOf(namespace, [key]),
        ]);
        return view(key, { todayCost: today, counters: counters?.get(key.metadata.uid) });
      },
    }),
    defineRoute<CreateKeyInput>({
      method: 'POST',
      path: base,
      summary:
        'Creates a key: its Secret (chosen or generated value) as the user, then the ApiKey. ' +
        'The value is in this response only.',
      tag: 'Keys',
      body: createKeySchema,
      response: createdKeySchema,
      successStatus: 201,
      handler: (call) => {
        const { kube } = session(call);
        const namespace = param(call, 'namespace');
        const input = call.body;
        const name = input.name ?? nameFromDisplayName(input.displayName, randomSuffix());
        return audited(
          context,
          { username: kube.identity.username, verb: 'create', kind: 'ApiKey', namespace, name },
          async () => {
            const value = input.value ?? generateKeyValue();
            const secretName = await createKeySecret(kube, { namespace, apiKeyName: name, value });
            const spec = buildCreateSpec(input, {
              secretName,
              now: context.now(),
              owner: kube.identity.username,
            });
            const created = await kube.create<ApiKey>(
              { kind: 'ApiKey', namespace },
              {
                apiVersion: 'tollgate.dev/v1alpha1',
                kind: 'ApiKey',
                metadata: { name, namespace },
                spec,
              },
            );
            const clientConfig = await keyClientConfigOrNull(context, {
              kube,
              key: created,
              keyValue: value,
            });
            return { key: view(created, { todayCost: 0 }), value, clientConfig };
          },
        );
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${base}/{name}`,
      summary:
        'Edits any field, the group included (null removes a field). With `generation` (the ' +
        "key's, as read), refused with 409 when its spec changed since; status writes do not count.",
      tag: 'Keys',
      body: editKeySchema,
      response: keyViewSchema,
      handler: (call) => {
        const { kube } = session(call);
        const target = ref(call);
        return audited(
          context,
          { username: kube.identity.username, verb: 'update', ...target },
          async () =>
            changedView(
              await patchUnlessRespecified<ApiKey>(kube, target, {
                generation: call.body.generation,
                resourceVersion: call.body.resourceVersion,
                what: `The key "${target.name}"`,
                patch: () => buildEditPatch(call.body, context.now()),
              }),
            ),
        );
      },
    }),
    patchAction({
      verb: 'enable',
      path: 'enable',
      summary: 'Enables the key (spec.suspend false).',
      patch: () => ({ spec: { suspend: false } }),
    }),
    patchAction({
      verb: 'disable',
      path: 'disable',
      summary: 'Disables the key (spec.suspend true).',
      patch: () => ({ spec: { suspend: true } }),
    }),
    patchAction({
      verb: 'reset-quota',
      path: 'reset-quota',
      summary: 'Zeroes the used quota once (a new tollgate.dev/reset-quota annotation token).',
      patch: () => ({
        metadata: {
          annotations: {
            [RESET_QUOTA_ANNOTATION]: `${new Date(context.now()).toISOString()}-${randomBytes(4).toString('hex')}`,
          },
        },
      }),
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/{name}/rotate`,
      summary:
        'Rotates the value: a new Secret (created as the user) replaces the old one in the ' +
        'ApiKey; the old value stops working. The new value is in this response only.',
      tag: 'Keys',
      body: emptyBody,
      response: createdKeySchema,
      handler: (call) => {
        const { kube } = session(call);
        const target = ref(call);
        return audited(
          context,
          { username: kube.identity.username, verb: 'rotate', ...target },
          async () => {
            const current = await kube.get<ApiKey>(target);
            const value = generateKeyValue();
            const secretName = await createKeySecret(kube, {
              namespace: target.namespace,
              apiKeyName: target.name,
              value,
              owner: { name: target.name, uid: current.metadata.uid },
            });
            const updated = await kube.mergePatch<ApiKey>(target, {
              metadata: { resourceVersion: current.metadata.resourceVersion },
              spec: { secretName, secretKey: 'apiKey' },
            });
            await kube
              .remove({ kind: 'Secret', namespace: target.namespace, name: keySecretName(current) })
              .catch(() => undefined);
            const clientConfig = await keyClientConfigOrNull(context, {
              kube,
              key: updated,
              keyValue: value,
            });
            return { key: await changedView(updated), value, clientConfig };
          },
        );
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${base}/{name}`,
      summary: 'Deletes the key (and, when the user may, the Secret of its value).',
      tag: 'Keys',
      response: z.object({ deleted: z.literal(true) }),
      handler: (call) => {
        const { kube } = session(call);
        const target = ref(call);
        return audited(
          context,
          { username: kube.identity.username, verb: 'delete', ...target },
          async () => {
            const current = await kube.get<ApiKey>(target);
            await kube.remove(target);
            await kube
              .remove({ kind: 'Secret', namespace: target.namespace, name: keySecretName(current) })
              .catch(() => undefined);
            return { deleted: true as const };
          },
        );
      },
    }),
  ];
}
