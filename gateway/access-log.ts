/**
 * The gateway's access log: one line per call, written when its response ends (`request
 * completed`, at `info`), with the request id, method, URL (keys in it redacted by the `req`
 * serializer), status, duration in ms and, for a refused or failed call, Tollgate's error code.
 * A call the client closes before its response ended gets its line from the response's close
 * instead (`request closed by client`, `requestClosed`, called by the gateway): with the status
 * it was sent, or 499 when nothing was, and `TG_CLIENT_CLOSED`. fastify would only have written
 * `stream closed prematurely` (no duration, no code), and nothing at all for a call closed before
 * its stream started. fastify's default also writes a second line when each request arrives; at
 * gateway rates that line doubled the lines for what the completed line already holds
 * (docs/benchmarks.md as of 1a81819, "The forward path, fourth round").
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** The levels at which `info` lines are written. */
const WRITES_INFO = new Set(['info', 'debug', 'trace']);

export class AccessLog extends LogController {
  override incomingRequest(): void {
    // The call's line is written when it completes.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    // Below `info` (the bench's `warn`), nothing per call: no line object, no clock read.
    if (!WRITES_INFO.has(reply.log.level)) return;
    const state = request.tollgate as typeof request.tollgate | undefined;
    const code = state?.errorCode ?? undefined;
    reply.log.info(
      { req: request, res: reply, responseTime: reply.elapsedTime, code },
      'request completed',
    );
  }

  /** The line of a call whose client went away first; `statusCode` as sent, or 499. */
  requestClosed(request: FastifyRequest, reply: FastifyReply, statusCode: number): void {
    if (!WRITES_INFO.has(reply.log.level)) return;
    reply.log.info(
      {
        req: request,
        res: { statusCode },
        responseTime: reply.elapsedTime,
        code: 'TG_CLIENT_CLOSED',
      },
      'request closed by client',
    );
  }

  override streamError(
    error: Error & { code?: string },
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // A stream the client closed: its line is `requestClosed`'s.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    super.streamError(error, request, reply);
  }
}
