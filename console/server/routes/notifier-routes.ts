/**
 * Notifiers of one account (namespace) and, for administrators, the ClusterNotifiers, all as the
 * signed-in user (RBAC decides: key managers write their namespace's Notifiers, viewers read them,
 * administrators everything). The Secret value sent with a create or an edit (the webhook's
 * signing secret or the Slack incoming-webhook URL) goes to a new Secret, labelled for notifiers,
 * in its namespace (a ClusterNotifier's in the operator namespace), and is never returned. The
 * Secret is written before the notifier points at it; on an edit the one written before is removed
 * after the notifier was changed (and kept when the change fails).
 */
import { z } from 'zod';
import {
  clusterNotifierSpecSchema,
  NOTIFIER_SECRET_LABEL,
  notifierSpecSchema,
} from '../../../crds/schema/resources.js';
import { defineRoute, session, type ApiRoute, type RouteCall } from '../api/api-route.js';
import { audited } from '../audit/audited.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError } from '../console-error.js';
import { randomSuffix } from '../keys/generate-key-value.js';
import { patchUnlessRespecified } from '../kubernetes/patch-unless-respecified.js';
import { adminObjectView } from './admin-object-view.js';
import type { KubeObject, UserKube } from '../kubernetes/user-kube.js';
import { describeSpecIssue, firstSpecIssue } from './admin-spec-issue.js';
import {
  createNotifierSchema,
  editNotifierSchema,
  notifierListSchema,
  notifierViewSchema,
  type CreateNotifierInput,
  type EditNotifierInput,
} from './notifier-schemas.js';

type NotifierKind = 'Notifier' | 'ClusterNotifier';

interface Scope {
  kind: NotifierKind;
  /** The notifier's namespace; undefined for a ClusterNotifier. */
  namespace: string | undefined;
  /** Where its Secret goes. */
  secretNamespace: string;
}

function param(call: RouteCall<unknown, unknown>, name: string): string {
  const value = call.params[name];
  if (value === undefined) throw new ConsoleError('INVALID_INPUT', `missing ${name}`);
  return value;
}

/**
 * The spec checked against the kind's schema, with the reference to the Secret about to be written
 * when a value is sent (the key inside it: `signingSecret` or `webhookURL`).
 */
function checkedSpec(
  kind: NotifierKind,
  input: { spec: Record<string, unknown>; secretName: string | undefined },
): Record<string, unknown> {
  const spec = { ...input.spec };
  if (input.secretName !== undefined) {
    if (typeof spec.slack === 'object' && spec.slack !== null) {
      spec.slack = { webhookURLSecretRef: { name: input.secretName, key: 'webhookURL' } };
    } else if (typeof spec.webhook === 'object' && spec.webhook !== null) {
      spec.webhook = {
        ...(spec.webhook as Record<string, unknown>),
        signingSecretRef: { name: input.secretName, key: 'signingSecret' },
      };
    }
  }
  const issue = firstSpecIssue(
    kind === 'Notifier' ? notifierSpecSchema : clusterNotifierSpecSchema,
    spec,
  );
  if (issue !== undefined) {
    const described = describeSpecIssue(issue);
    throw new ConsoleError('INVALID_INPUT', described.message, { field: described.field });
  }
  if ((spec.webhook === undefined) === (spec.slack === undefined)) {
    throw new ConsoleError('INVALID_INPUT', 'choose a webhook or a Slack target', {
      field: 'spec',
    });
  }
  return spec;
}

function ownerReferenceOf(scope: Scope, owner: KubeObject) {
  return {
    apiVersion: 'tollgate.dev/v1alpha1',
    kind: scope.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
  };
}

/**
 * Writes the notifier's Secret, labelled for notifiers (the operator reads no other Secret for a
 * Notifier) and, when the notifier exists already, owned by it.
 */
async function writeNotifierSecret(
  kube: UserKube,
  input: { scope: Scope; secretName: string; owner?: KubeObject; slack: boolean; value: string },
): Promise<void> {
  const { scope, owner } = input;
  const key = input.slack ? 'webhookURL' : 'signingSecret';
  await kube.create(
    { kind: 'Secret', namespace: scope.secretNamespace },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: input.secretName,
        namespace: scope.secretNamespace,
        labels: {
          'app.kubernetes.io/managed-by': 'tollgate-console',
          [NOTIFIER_SECRET_LABEL]: 'true',
        },
        ...(owner === undefined ? {} : { ownerReferences: [ownerReferenceOf(scope, owner)] }),
      },
      stringData: { [key]: input.value },
    },
  );
}

/**
 * Removes a Secret the console wrote, when the user may read and delete it (key managers may not:
 * it stays, owned by the notifier when it was written for an existing one).
 */
async function removeConsoleSecret(kube: UserKube, scope: Scope, name: string): Promise<void> {
  const ref = { kind: 'Secret' as const, namespace: scope.secretNamespace, name };
  try {
    const secret = await kube.get<{ metadata?: { labels?: Record<string, string> } }>(ref);
    if (secret.metadata?.labels?.['app.kubernetes.io/managed-by'] !== 'tollgate-console') return;
    await kube.remove(ref);
  } catch {
    // Not allowed, or gone already.
  }
}

/** The name of the Secret a notifier spec reads. */
function secretRefName(spec: unknown): string | undefined {
  const target = spec as {
    webhook?: { signingSecretRef?: { name?: string } };
    slack?: { webhookURLSecretRef?: { name?: string } };
  } | null;
  return target?.webhook?.signingSecretRef?.name ?? target?.slack?.webhookURLSecretRef?.name;
}

/** Refuses before anything is written when the user may not create the notifier's Secret. */
async function requireSecretCreation(kube: UserKube, scope: Scope): Promise<void> {
  const allowed = await kube.can({
    verb: 'create',
    group: '',
    resource: 'secrets',
    namespace: scope.secretNamespace,
  });
  if (!allowed) {
    throw new ConsoleError(
      'FORBIDDEN',
      `you may not create the notifier's Secret in the namespace "${scope.secretNamespace}"`,
    );
  }
}

function notifierRoutesOf(
  context: ConsoleContext,
  options: {
    kind: NotifierKind;
    path: string;
    tag: 'Notifiers' | 'Admin';
    scopeOf: (call: RouteCall<unknown, unknown>) => Scope;
  },
): ApiRoute[] {
  const { path, tag, scopeOf, kind } = options;
  const secretNameOf = (name: string, secretValue: string | undefined) =>
    secretValue === undefined ? undefined : `${name}-notifier-${randomSuffix()}`;
  return [
    defineRoute({
      method: 'GET',
      path,
      summary: `Lists the ${kind}s, each with its status (conditions and delivery history).`,
      tag,
      response: notifierListSchema,
      handler: async (call) => {
        const { kube } = session(call);
        const scope = scopeOf(call);
        const list = await kube.list({ kind: scope.kind, namespace: scope.namespace });
        return { items: list.items.map(adminObjectView) };
      },
    }),
    defineRoute<CreateNotifierInput>({
      method: 'POST',
      path,
      summary: `Creates a ${kind}; \`secretValue\` (signing secret or Slack URL) goes to a new Secret it owns.`,
      tag,
      body: createNotifierSchema,
      response: notifierViewSchema,
      successStatus: 201,
      handler: (call) => {
        const { kube } = session(call);
        const scope = scopeOf(call);
        const { name, secretValue } = call.body;
        const ref = { kind: scope.kind, namespace: scope.namespace, name };
        return audited(
          context,
          { username: kube.identity.username, verb: 'create', ...ref },
          async () => {
            const secretName = secretNameOf(name, secretValue);
            const spec = checkedSpec(scope.kind, { spec: call.body.spec, secretName });
            const secret =
              secretName !== undefined && secretValue !== undefined
                ? { scope, secretName, slack: spec.slack !== undefined, value: secretValue }
                : undefined;
            // The Secret first, so the notifier never points at a Secret not there yet.
            if (secret !== undefined) {
              await requireSecretCreation(kube, scope);
              await writeNotifierSecret(kube, secret);
            }
            let created: KubeObject;
            try {
              created = await kube.create(
                { kind: scope.kind, namespace: scope.namespace },
                {
                  apiVersion: 'tollgate.dev/v1alpha1',
                  kind: scope.kind,
                  metadata: {
                    name,
                    ...(scope.namespace === undefined ? {} : { namespace: scope.namespace }),
                  },
                  spec,
                },
              );
            } catch (error) {
              if (secret !== undefined) await removeConsoleSecret(kube, scope, secret.secretName);
              throw error;
            }
            if (secret !== undefined) {
              // Owned by the notifier now it exists, so it goes with it; only users who may patch
              // Secrets can do this (the label alone lets the operator read it).
              await kube
                .mergePatch(
                  { kind: 'Secret', namespace: scope.secretNamespace, name: secret.secretName },
                  { metadata: { ownerReferences: [ownerReferenceOf(scope, created)] } },
                )
                .catch(() => undefined);
            }
            return adminObjectView(created);
          },
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${path}/{name}`,
      summary: `One ${kind} with its status.`,
      tag,
      response: notifierViewSchema,
      handler: async (call) => {
        const { kube } = session(call);
        const scope = scopeOf(call);
        return adminObjectView(
          await kube.get({
            kind: scope.kind,
            namespace: scope.namespace,
            name: param(call, 'name'),
          }),
        );
      },
    }),
    defineRoute<EditNotifierInput>({
      method: 'PUT',
      path: `${path}/{name}`,
      summary: `Replaces the ${kind}'s spec; a \`secretValue\` sent goes to a new Secret. With \`generation\` (as read), refused with 409 when the spec changed meanwhile.`,
      tag,
      body: editNotifierSchema,
      response: notifierViewSchema,
      handler: (call) => {
        const { kube } = session(call);
        const scope = scopeOf(call);
        const name = param(call, 'name');
        const ref = { kind: scope.kind, namespace: scope.namespace, name };
        return audited(
          context,
          { username: kube.identity.username, verb: 'update', ...ref },
          async () => {
            const { generation, resourceVersion, secretValue } = call.body;
            const secretName = secretNameOf(name, secretValue);
            const spec = checkedSpec(scope.kind, { spec: call.body.spec, secretName });
            let previous: string | undefined;
            if (secretName !== undefined && secretValue !== undefined) {
              await requireSecretCreation(kube, scope);
              const current = await kube.get(ref);
              previous = secretRefName(current.spec);
              await writeNotifierSecret(kube, {
                scope,
                secretName,
                owner: current,
                slack: spec.slack !== undefined,
                value: secretValue,
              });
            }
            let updated: KubeObject;
            try {
              updated = await patchUnlessRespecified<KubeObject>(kube, ref, {
                generation,
                resourceVersion,
                what: `The ${scope.kind} "${name}"`,
                patch: (current) => ({ spec: replacing(current.spec, spec) }),
              });
            } catch (error) {
              // The notifier still reads its working Secret: only the new one goes.
              if (secretName !== undefined) await removeConsoleSecret(kube, scope, secretName);
              throw error;
            }
            // The Secret the console wrote before is no longer read.
            if (secretName !== undefined && previous !== undefined && previous !== secretName) {
              await removeConsoleSecret(kube, scope, previous);
            }
            return adminObjectView(updated);
          },
        );
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${path}/{name}`,
      summary: `Deletes the ${kind} (the Secrets the console wrote for it go with it).`,
      tag,
      response: z.object({ deleted: z.literal(true) }),
      handler: (call) => {
        const { kube } = session(call);
        const scope = scopeOf(call);
        const ref = { kind: scope.kind, namespace: scope.namespace, name: param(call, 'name') };
        return audited(
          context,
          { username: kube.identity.username, verb: 'delete', ...ref },
          async () => {
            await kube.remove(ref);
            return { deleted: true as const };
          },
        );
      },
    }),
  ];
}

/** A merge patch that turns `current` into `next` (fields missing from next become null). */
function replacing(current: unknown, next: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = { ...next };
  if (typeof current === 'object' && current !== null) {
    for (const key of Object.keys(current)) if (!(key in next)) patch[key] = null;
  }
  return patch;
}

export function notifierRoutes(context: ConsoleContext): ApiRoute[] {
  return [
    ...notifierRoutesOf(context, {
      kind: 'Notifier',
      path: '/accounts/{namespace}/notifiers',
      tag: 'Notifiers',
      scopeOf: (call) => {
        const namespace = call.params.namespace ?? '';
        return { kind: 'Notifier', namespace, secretNamespace: namespace };
      },
    }),
    ...notifierRoutesOf(context, {
      kind: 'ClusterNotifier',
      path: '/admin/clusternotifiers',
      tag: 'Admin',
      scopeOf: () => ({
        kind: 'ClusterNotifier',
        namespace: undefined,
        secretNamespace: context.config.operatorNamespace,
      }),
    }),
  ];
}
