/**
 * Audit of console mutations, and of reads of captured bodies: one structured log line and one
 * Kubernetes Event (core/v1, on the object, in its namespace; cluster-scoped objects' events go to
 * `default` as the API server does) per call, with who, what, when and the outcome. Neither ever carries a key value: callers pass
 * only names, and the message is built here from them. Event writes use the console's own identity
 * (users need no right on Events) and never fail the user's call.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { KubeClient } from '../kubernetes/kube-client.js';
import { apiVersionOf, resourcePath, type ConsoleKind } from '../kubernetes/resource-paths.js';

export interface AuditEntry {
  username: string;
  /** create, update, delete, enable, disable, reset-quota, rotate, read-capture... */
  verb: string;
  kind: ConsoleKind;
  namespace?: string | undefined;
  name: string;
  uid?: string | undefined;
  /** What else names the target (a read capture's request id); never a value or a body. */
  detail?: string;
  outcome: 'Succeeded' | 'Failed';
  /** The refusal's code and message when failed. */
  reason?: string;
}

export type AuditRecorder = (entry: AuditEntry) => Promise<void>;

function reasonOf(entry: AuditEntry): string {
  const verb = entry.verb
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `Console${verb}${entry.outcome === 'Failed' ? 'Failed' : ''}`;
}

export function auditMessage(entry: AuditEntry): string {
  const detail = entry.detail === undefined ? '' : ` (${entry.detail})`;
  const object = `${entry.kind} ${entry.namespace === undefined ? '' : `${entry.namespace}/`}${entry.name}${detail}`;
  const outcome =
    entry.outcome === 'Succeeded' ? 'succeeded' : `failed: ${entry.reason ?? 'unknown error'}`;
  return `${entry.username} ${entry.verb} ${object} through the console: ${outcome}`.slice(0, 1000);
}

export function createAuditRecorder(options: {
  client: KubeClient;
  log: FastifyBaseLogger;
  now?: () => number;
}): AuditRecorder {
  const now = options.now ?? Date.now;
  return async (entry) => {
    const time = new Date(now()).toISOString();
    options.log.info(
      {
        audit: {
          user: entry.username,
          verb: entry.verb,
          kind: entry.kind,
          namespace: entry.namespace,
          name: entry.name,
          detail: entry.detail,
          outcome: entry.outcome,
          reason: entry.reason,
          time,
        },
      },
      entry.verb === 'read-capture' ? 'console read of captured bodies' : 'console mutation',
    );
    const namespace = entry.namespace ?? 'default';
    try {
      await options.client.call({
        method: 'POST',
        path: resourcePath({ kind: 'Event', namespace }),
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { generateName: `${entry.name}.`, namespace },
          involvedObject: {
            apiVersion: apiVersionOf(entry.kind),
            kind: entry.kind,
            name: entry.name,
            ...(entry.namespace === undefined ? {} : { namespace: entry.namespace }),
            ...(entry.uid === undefined ? {} : { uid: entry.uid }),
          },
          reason: reasonOf(entry),
          message: auditMessage(entry),
          type: entry.outcome === 'Succeeded' ? 'Normal' : 'Warning',
          source: { component: 'tollgate-console' },
          reportingComponent: 'tollgate-console',
          reportingInstance: 'tollgate-console',
          action: entry.verb,
          firstTimestamp: time,
          lastTimestamp: time,
          eventTime: null,
          count: 1,
        },
      });
    } catch (error) {
      options.log.warn(
        { err: error instanceof Error ? error.message : String(error), name: entry.name },
        'could not record the audit Event',
      );
    }
  };
}
