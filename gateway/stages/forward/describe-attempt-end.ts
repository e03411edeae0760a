/**
 * An attempt's result as its span records it (pure; only called when tracing is on): the
 * upstream's status, the attempt outcome (classify-attempt.ts) and, for a failure of the gateway's
 * own (a transport error, the client gone), the Tollgate code it maps to.
 */
import type { AttemptEnd } from '../../tracing/attempt-trace.js';
import type { AttemptResult } from './attempt-upstream.js';
import { mapTransportError } from './map-upstream-failure.js';

export function describeAttemptEnd(result: AttemptResult): AttemptEnd {
  switch (result.kind) {
    case 'success':
      return { status: result.response.statusCode, outcome: 'ok', errorCode: null };
    case 'error-status':
      return { status: result.reply.status, outcome: result.outcome, errorCode: null };
    case 'transport-error':
      return {
        status: null,
        outcome: result.outcome,
        errorCode: mapTransportError(result.error).code,
      };
    case 'client-closed':
      return { status: null, outcome: 'client_closed', errorCode: 'TG_CLIENT_CLOSED' };
  }
}
