/**
 * The console's per-request log lines at `debug`: a page load is dozens of requests and the web
 * app polls, so at the default level (`info`) they would bury everything else (in `tollgate
 * local`, the start banner). Failures keep fastify's levels: a request that errored and a 5xx at
 * `error`, a stream cut with an error at `warn`; a 4xx answer, like every completed request, at
 * `debug`.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class DebugAccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
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
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode >= 500) {
      super.defaultErrorLog(error, request, reply);
      return;
    }
    reply.log.debug({ res: reply, err: error }, error.message);
  }
}
