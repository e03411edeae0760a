/**
 * Administrators' resources, as the user (RBAC refuses everyone else): Groups, Upstreams and Plans
 * (cluster-scoped) and Accounts (one `default` per namespace). An Upstream's API key is written to
 * a Secret in the operator namespace and never returned.
 */
import { z } from 'zod';
import {
  accountSpecSchema,
  groupSpecSchema,
  planSpecSchema,
  upstreamSpecSchema,
} from '../../../crds/schema/resources.js';
import { defineRoute, session, type ApiRoute, type RouteCall } from '../api/api-route.js';
import { audited } from '../audit/audited.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError, isConsoleError } from '../console-error.js';
import {
  adminListSchema,
  adminObjectSchema,
  credentialValues,
  upstreamUpdateSchema,
  versionFields,
} from './admin-schemas.js';
import { describeSpecIssue, firstSpecIssue } from './admin-spec-issue.js';
import type { ConsoleKind } from '../kubernetes/resource-paths.js';
import { patchUnlessRespecified } from '../kubernetes/patch-unless-respecified.js';
import { adminObjectView } from './admin-object-view.js';
import type { UserKube } from '../kubernetes/user-kube.js';

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** What an edit may carry to be refused (409) when the object changed since it was read. */
interface Versioned {
  /** The generation read: refused when the spec changed since (status writes do not count). */
  generation?: number | undefined;
  /** The exact version read: refused when anything changed since, status included. */
  resourceVersion?: string | undefined;
}
const VERSIONED =
  'With `generation` (as read), refused with 409 when the spec changed meanwhile (status writes ' +
  'do not count); with `resourceVersion`, when anything changed.';

function nameParam(call: RouteCall<unknown, unknown>, name: string): string {
  const value = call.params[name];
  if (value === undefined || !NAME.test(value)) {
    throw new ConsoleError('INVALID_INPUT', `invalid ${name}`, { field: name });
  }
  return value;
}

interface ClusterKind {
  kind: Extract<ConsoleKind, 'Group' | 'Upstream' | 'Plan'>;
  path: string;
  spec: z.ZodType;
}

const upstreamBody = z.strictObject({
  name: z.string().regex(NAME).max(253),
  spec: z.record(z.string(), z.unknown()),
  ...credentialValues,
});

type UpstreamBody = z.output<typeof upstreamBody>;

function parseSpec(schema: z.ZodType, spec: unknown): Record<string, unknown> {
  const issue = firstSpecIssue(schema, spec);
  if (issue !== undefined) {
    const described = describeSpecIssue(issue);
    throw new ConsoleError('INVALID_INPUT', described.message, { field: described.field });
  }
  return spec as Record<string, unknown>;
}

/** The Secret that holds an Upstream's credential when the console writes it. */
export function upstreamSecretName(upstream: string): string {
  return `tollgate-upstream-${upstream}`;
}

async function writeUpstreamCredential(
  kube: UserKube,
  options: { namespace: string; upstream: string; data: Record<string, string> },
): Promise<void> {
  const name = upstreamSecretName(options.upstream);
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name,
      namespace: options.namespace,
      labels: { 'app.kubernetes.io/managed-by': 'tollgate-console' },
    },
    stringData: options.data,
  };
  try {
    await kube.create({ kind: 'Secret', namespace: options.namespace }, secret);
  } catch (error) {
    if (!(isConsoleError(error) && error.code === 'CONFLICT')) throw error;
    await kube.mergePatch(
      { kind: 'Secret', namespace: options.namespace, name },
      { stringData: options.data },
    );
  }
}

/**
 * The spec with the credential reference of values sent now (the Secret the console writes), so
 * that it is checked before anything is written.
 */
function specWithCredentialRef(input: UpstreamBody): Record<string, unknown> {
  const spec = { ...input.spec };
  const secretName = upstreamSecretName(input.name);
  if (input.apiKeyValue !== undefined) {
    spec.credentials = {
      type: 'APIKey',
      apiKey: { secretRef: { name: secretName, key: 'apiKey' } },
    };
  } else if (input.googleOAuthSecret !== undefined) {
    const current = spec.credentials as { googleOAuth?: Record<string, unknown> } | undefined;
    spec.credentials = {
      type: 'GoogleOAuth',
      googleOAuth: { ...current?.googleOAuth, secretRef: { name: secretName } },
    };
  }
  return spec;
}

export function adminRoutes(context: ConsoleContext): ApiRoute[] {
  const clusterKinds: ClusterKind[] = [
    { kind: 'Group', path: '/admin/groups', spec: groupSpecSchema },
    { kind: 'Upstream', path: '/admin/upstreams', spec: upstreamSpecSchema },
    { kind: 'Plan', path: '/admin/plans', spec: planSpecSchema },
  ];
  const routes: ApiRoute[] = [];
  for (const { kind, path, spec } of clusterKinds) {
    const body =
      kind === 'Upstream'
        ? upstreamBody
        : z.strictObject({
            name: z.string().regex(NAME).max(253),
            spec: z.record(z.string(), z.unknown()),
          });
    /** Checks the spec, then writes the credential values sent (never before the check). */
    const withCredential = async (
      kube: UserKube,
      input: UpstreamBody,
    ): Promise<Record<string, unknown>> => {
      const checked = parseSpec(spec, specWithCredentialRef(input));
      const data =
        input.apiKeyValue !== undefined
          ? { apiKey: input.apiKeyValue }
          : input.googleOAuthSecret !== undefined
            ? { ...input.googleOAuthSecret }
            : undefined;
      if (data !== undefined) {
        await writeUpstreamCredential(kube, {
          namespace: context.config.operatorNamespace,
          upstream: input.name,
          data,
        });
      }
      return checked;
    };
    routes.push(
      defineRoute({
        method: 'GET',
        path,
        summary: `All ${kind}s.`,
        tag: 'Admin',
        response: adminListSchema,
        handler: async (call) => {
          const { kube } = session(call);
          const list = await kube.list({ kind });
          return { items: list.items.map(adminObjectView) };
        },
      }),
      defineRoute<UpstreamBody>({
        method: 'POST',
        path,
        summary:
          kind === 'Upstream'
            ? 'Creates an Upstream; `apiKeyValue` goes to a Secret in the operator namespace.'
            : `Creates a ${kind}.`,
        tag: 'Admin',
        body,
        response: adminObjectSchema,
        successStatus: 201,
        handler: (call) => {
          const { kube } = session(call);
          const name = call.body.name;
          return audited(
            context,
            { username: kube.identity.username, verb: 'create', kind, name },
            async () =>
              adminObjectView(
                await kube.create(
                  { kind },
                  {
                    apiVersion: 'tollgate.dev/v1alpha1',
                    kind,
                    metadata: { name },
                    spec: await withCredential(kube, call.body),
                  },
                ),
              ),
          );
        },
      }),
      defineRoute({
        method: 'GET',
        path: `${path}/{name}`,
        summary: `One ${kind}.`,
        tag: 'Admin',
        response: adminObjectSchema,
        handler: async (call) => {
          const { kube } = session(call);
          return adminObjectView(await kube.get({ kind, name: nameParam(call, 'name') }));
        },
      }),
      defineRoute<Omit<UpstreamBody, 'name'> & Versioned>({
        method: 'PUT',
        path: `${path}/{name}`,
        summary:
          kind === 'Upstream'
            ? `Replaces the Upstream's spec; credential values sent replace those in its Secret. ${VERSIONED}`
            : `Replaces the ${kind}'s spec. ${VERSIONED}`,
        tag: 'Admin',
        body:
          kind === 'Upstream'
            ? upstreamUpdateSchema
            : z.strictObject({ spec: z.record(z.string(), z.unknown()), ...versionFields }),
        response: adminObjectSchema,
        handler: (call) => {
          const { kube } = session(call);
          const name = nameParam(call, 'name');
          return audited(
            context,
            { username: kube.identity.username, verb: 'update', kind, name },
            async () => {
              const { resourceVersion, generation, ...input } = call.body;
              const next = await withCredential(kube, { name, ...input });
              return adminObjectView(
                await patchUnlessRespecified(
                  kube,
                  { kind, name },
                  {
                    generation,
                    resourceVersion,
                    what: `The ${kind} "${name}"`,
                    patch: (current) => ({ spec: replacing(current.spec, next) }),
                  },
                ),
              );
            },
          );
        },
      }),
      deleteRoute(context, { kind, path: `${path}/{name}` }),
    );
  }
  routes.push(...accountAdminRoutes(context));
  return routes;
}

/** A merge patch that turns `current` into `next` (fields missing from next become null). */
function replacing(current: unknown, next: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = { ...next };
  if (typeof current === 'object' && current !== null) {
    for (const key of Object.keys(current)) if (!(key in next)) patch[key] = null;
  }
  return patch;
}

function deleteRoute(
  context: ConsoleContext,
  options: { kind: Extract<ConsoleKind, 'Group' | 'Upstream' | 'Plan' | 'Account'>; path: string },
): ApiRoute {
  return defineRoute({
    method: 'DELETE',
    path: options.path,
    summary: `Deletes the ${options.kind}.`,
    tag: 'Admin',
    response: z.object({ deleted: z.literal(true) }),
    handler: (call) => {
      const { kube } = session(call);
      const namespace = options.kind === 'Account' ? nameParam(call, 'namespace') : undefined;
      const name = options.kind === 'Account' ? 'default' : nameParam(call, 'name');
      return audited(
        context,
        { username: kube.identity.username, verb: 'delete', kind: options.kind, namespace, name },
        async () => {
          await kube.remove({ kind: options.kind, namespace, name });
          return { deleted: true as const };
        },
      );
    },
  });
}

function accountAdminRoutes(context: ConsoleContext): ApiRoute[] {
  const path = '/admin/accounts';
  return [
    defineRoute({
      method: 'GET',
      path,
      summary: 'The Accounts of every namespace.',
      tag: 'Admin',
      response: adminListSchema,
      handler: async (call) => {
        const { kube } = session(call);
        return { items: (await kube.list({ kind: 'Account' })).items.map(adminObjectView) };
      },
    }),
    defineRoute<{ spec: Record<string, unknown> } & Versioned>({
      method: 'PUT',
      path: `${path}/{namespace}`,
      summary: `Creates or replaces the namespace's Account (credit, concurrency, display name, subscription, member limits). ${VERSIONED}`,
      tag: 'Admin',
      body: z.strictObject({
        spec: z.record(z.string(), z.unknown()),
        ...versionFields,
      }),
      response: adminObjectSchema,
      handler: (call) => {
        const { kube } = session(call);
        const namespace = nameParam(call, 'namespace');
        const ref = { kind: 'Account' as const, namespace, name: 'default' };
        return audited(
          context,
          { username: kube.identity.username, verb: 'update', ...ref },
          async () => {
            const spec = parseSpec(accountSpecSchema, call.body.spec);
            const current = await kube.get(ref).catch((error: unknown) => {
              if (isConsoleError(error) && error.code === 'NOT_FOUND') return undefined;
              throw error;
            });
            if (current === undefined) {
              return adminObjectView(
                await kube.create(
                  { kind: 'Account', namespace },
                  {
                    apiVersion: 'tollgate.dev/v1alpha1',
                    kind: 'Account',
                    metadata: { name: 'default', namespace },
                    spec,
                  },
                ),
              );
            }
            return adminObjectView(
              await patchUnlessRespecified(kube, ref, {
                generation: call.body.generation,
                resourceVersion: call.body.resourceVersion,
                what: `The Account of "${namespace}"`,
                patch: (latest) => ({ spec: replacing(latest.spec, spec) }),
              }),
            );
          },
        );
      },
    }),
    deleteRoute(context, { kind: 'Account', path: `${path}/{namespace}` }),
  ];
}
