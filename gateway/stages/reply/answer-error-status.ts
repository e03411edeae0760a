/**
 * The last attempt's error status, answered as the caller's protocol expects: passed on as the
 * upstream sent it when it is already in the caller's shape (translated routes translate it), or
 * rendered as a Tollgate error (thrown, for the error handler) with the upstream's `retry-after`.
 */
import type { FastifyReply } from 'fastify';
import type { ForwardContext, RequestAdapter } from '../../spec/protocol-adapter.js';
import type { ErrorReply } from '../forward/attempt-upstream.js';
import { decideUpstreamError } from '../forward/map-upstream-failure.js';
import { headerText } from './plan-reply.js';

/** The reply to send: its status and body (the headers are the upstream's). */
export interface ErrorAnswer {
  status: number;
  body: Buffer;
}

export function answerErrorStatus(
  reply: FastifyReply,
  context: ForwardContext,
  forwarded: { adapter: RequestAdapter; reply: ErrorReply },
): ErrorAnswer {
  const { adapter, reply: failed } = forwarded;
  const decision = decideUpstreamError({
    status: failed.status,
    retryAfter: headerText(failed.headers['retry-after']),
    body: failed.json,
    isCallerShape: (body) => adapter.isErrorBody(body),
  });
  if (decision.kind === 'render') {
    if (decision.retryAfter !== null) reply.header('retry-after', decision.retryAfter);
    throw decision.error;
  }
  // Translated routes answer in the caller's protocol, error bodies included.
  const translator = adapter.translateReply?.(context, { stream: false, status: failed.status });
  const body =
    translator === undefined
      ? failed.bytes
      : Buffer.concat([translator.push(failed.bytes), translator.end()]);
  return { status: decision.status, body };
}
