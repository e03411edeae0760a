/**
 * Requests Node's HTTP parser refuses before any route runs (headers or URL over the size limit,
 * conflicting Content-Length / Transfer-Encoding, a request that did not arrive in time), answered
 * in the caller's protocol instead of fastify's generic body. The protocol is guessed from the
 * request line when the refused packet holds it, else from the in-flight request, else the default.
 */
import type { Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { ErrorShape } from '../../errors/error-view.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { renderErrorBody } from '../../errors/render-error.js';
import { decideErrorShape } from './decide-error-shape.js';
import { parseRequestHead } from './parse-request-head.js';

const framingCodes = new Set([
  'HPE_INVALID_TRANSFER_ENCODING',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_INVALID_CHUNK_SIZE',
]);

/** Pure: the refusal for a Node client error code, or null when there is nobody to answer. */
export function clientErrorFor(code: string | undefined): GatewayError | null {
  if (code === 'ECONNRESET' || code === 'EPIPE') return null;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new GatewayError('TG_REQUEST_TIMEOUT');
  if (code === 'HPE_HEADER_OVERFLOW') return new GatewayError('TG_HEADERS_TOO_LARGE');
  if (code !== undefined && framingCodes.has(code)) {
    return new GatewayError('TG_MALFORMED_REQUEST', {
      detail: 'The body framing is invalid (conflicting Content-Length and Transfer-Encoding).',
    });
  }
  return new GatewayError('TG_MALFORMED_REQUEST', { detail: 'The request could not be parsed.' });
}

/** Pure: a complete HTTP/1.1 response that closes the connection. */
export function renderClientErrorResponse(
  error: GatewayError,
  input: { shape: ErrorShape; requestId: string },
): string {
  const body = JSON.stringify(renderErrorBody(input.shape, error));
  const lines = [
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-tollgate-request-id: ${input.requestId}`,
    'connection: close',
  ];
  if (error.retryAfterSeconds !== undefined) lines.push(`retry-after: ${error.retryAfterSeconds}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** A response already under way on the socket (Node keeps it there while a request is served). */
function inFlight(socket: Socket): { response: ServerResponse; request: IncomingMessage } | null {
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (response === undefined || response === null) return null;
  return { response, request: response.req };
}

export interface ClientErrorOptions {
  newRequestId: () => string;
  /** Told of every answered refusal (metrics, logs). */
  onRefusal: (error: GatewayError, cause: Error) => void;
}

export function createClientErrorHandler(options: ClientErrorOptions) {
  return function answerClientError(cause: Error, socket: Socket): void {
    const error = clientErrorFor((cause as { code?: string }).code);
    if (error === null || socket.destroyed) {
      socket.destroy();
      return;
    }
    const current = inFlight(socket);
    if (current?.response.headersSent === true || !socket.writable) {
      socket.destroy(cause);
      return;
    }
    const packet = (cause as { rawPacket?: unknown }).rawPacket;
    const head = parseRequestHead(Buffer.isBuffer(packet) ? packet : undefined);
    const hints =
      head ??
      (current === null
        ? { path: '/', headers: {} }
        : { path: current.request.url ?? '/', headers: current.request.headers });
    const shape = decideErrorShape({ profile: null, keyPlatform: null, hints });
    options.onRefusal(error, cause);
    const response = renderClientErrorResponse(error, { shape, requestId: options.newRequestId() });
    socket.end(response, () => socket.destroy());
  };
}
