/**
 * One usage record's page: the record (to users allowed to `get` the namespace's ApiKeys, like
 * every usage route) and its captured bodies, only to users allowed `get` on the subresource
 * `apikeys/captures` of that key (SelfSubjectAccessReview as the user; docs/captures.md).
 * A capture is read by request id only, never listed; each read and each refusal is audited.
 */
import type { ApiKey } from '../../../crds/schema/resources.js';
import { readCapturedCall } from '../../../ledger/queries/read-captured-call.js';
import { readUsageRecord } from '../../../ledger/queries/read-usage-record.js';
import type { CapturedCall } from '../../../store/captured-call.js';
import { defineRoute, session, type ApiRoute, type RouteCall } from '../api/api-route.js';
import { audited } from '../audit/audited.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleError } from '../console-error.js';
import type { UserKube } from '../kubernetes/user-kube.js';
import { NO_LEDGER_MESSAGE } from '../usage/guard-ledger.js';
import {
  capturedCallSchema,
  requestIdSchema,
  type CapturedCallView,
} from '../usage/capture-schemas.js';
import { usageRecordRowSchema } from '../usage/usage-schemas.js';
import { authorizeUsage } from './usage-routes.js';

function requestIdOf(call: RouteCall<unknown, unknown>): string {
  const parsed = requestIdSchema.safeParse(call.params.requestId);
  if (!parsed.success) {
    throw new ConsoleError('INVALID_INPUT', 'invalid request id', { field: 'requestId' });
  }
  return parsed.data;
}

async function keyUidOf(kube: UserKube, ref: { namespace: string; name: string }) {
  const key = await kube.get<ApiKey>({ kind: 'ApiKey', ...ref });
  return key.metadata.uid;
}

/** Allowed `get apikeys/captures` on the key, or a 403 in the console's shape. */
async function authorizeCapture(
  call: RouteCall<unknown, unknown>,
): Promise<{ kube: UserKube; namespace: string; name: string }> {
  const { kube } = session(call);
  const namespace = call.params.namespace ?? '';
  const name = call.params.name ?? '';
  const allowed = await kube.can({
    verb: 'get',
    group: 'tollgate.dev',
    resource: 'apikeys',
    subresource: 'captures',
    namespace,
    name,
  });
  if (!allowed) {
    throw new ConsoleError(
      'FORBIDDEN',
      `User "${kube.identity.username}" may not see captured bodies of key "${name}" in ` +
        `namespace "${namespace}" (needs get on apikeys/captures there).`,
    );
  }
  return { kube, namespace, name };
}

/** The capture of the record, once the user is allowed it; 404 when there is none. */
async function readCapture(
  context: ConsoleContext,
  call: RouteCall<unknown, unknown>,
  requestId: string,
): Promise<CapturedCall> {
  const { kube, namespace, name } = await authorizeCapture(call);
  if (context.ledger === undefined) {
    throw new ConsoleError('USAGE_UNAVAILABLE', NO_LEDGER_MESSAGE);
  }
  const keyUid = await keyUidOf(kube, { namespace, name });
  const captured = await readCapturedCall(context.ledger, {
    namespace,
    keyUid,
    requestId,
    now: context.now(),
  });
  if (captured === null) {
    throw new ConsoleError('NOT_FOUND', `Request "${requestId}" was not captured.`);
  }
  return captured;
}

export function recordRoutes(context: ConsoleContext): ApiRoute[] {
  const base = '/accounts/{namespace}/keys/{name}/records/{requestId}';
  return [
    defineRoute({
      method: 'GET',
      path: base,
      summary: "One usage record of the key, by request id (the record's page).",
      tag: 'Usage',
      response: usageRecordRowSchema,
      handler: async (call) => {
        const { kube, namespace, ledger } = await authorizeUsage(call, context);
        const requestId = requestIdOf(call);
        const keyUid = await keyUidOf(kube, { namespace, name: call.params.name ?? '' });
        const record = await readUsageRecord(ledger, { namespace, keyUid, requestId });
        if (record === null) {
          throw new ConsoleError('NOT_FOUND', `No usage record "${requestId}" for this key.`);
        }
        return record;
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/capture`,
      summary:
        "The record's captured request and response bodies (redacted), for users allowed get on " +
        'apikeys/captures; 404 when the call was not captured or its capture has expired.',
      tag: 'Usage',
      response: capturedCallSchema,
      handler: async (call): Promise<CapturedCallView> => {
        const requestId = requestIdOf(call);
        const entry = {
          username: session(call).kube.identity.username,
          verb: 'read-capture',
          kind: 'ApiKey' as const,
          namespace: call.params.namespace ?? '',
          name: call.params.name ?? '',
          detail: `request ${requestId}`,
        };
        // Every read of captured bodies, and every refusal, is audited (who read which call).
        const captured = await audited(context, entry, () => readCapture(context, call, requestId));
        return {
          requestId: captured.requestId,
          keyName: captured.keyName,
          group: captured.group,
          platform: captured.platform,
          path: captured.path,
          model: captured.model,
          streamed: captured.streamed,
          at: new Date(captured.at).toISOString(),
          expiresAt: new Date(captured.expiresAt).toISOString(),
          request: captured.request,
          response: captured.response,
        };
      },
    }),
  ];
}
