/**
 * Who is calling, as far as the console can tell: the client address (for the sign-in limits)
 * and the protocol it used (for the Secure cookie). `X-Forwarded-For` and `X-Forwarded-Proto`
 * count only when the connection comes from a configured trusted proxy.
 */
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import type { ParsedRange } from '../../../network/match-source-ranges.js';
import { resolveCallerIp } from '../../../network/resolve-caller-ip.js';
import { resolveForwardedProtocol } from '../../../network/resolve-forwarded-protocol.js';

export function clientAddress(request: FastifyRequest, proxies: readonly ParsedRange[]): string {
  return resolveCallerIp({
    socketAddress: request.raw.socket.remoteAddress,
    forwardedFor: request.headers['x-forwarded-for'],
    trustedProxies: proxies,
  });
}

export function clientProtocol(
  request: FastifyRequest,
  proxies: readonly ParsedRange[],
): 'http' | 'https' {
  return resolveForwardedProtocol({
    socketAddress: request.raw.socket.remoteAddress,
    encrypted: (request.raw.socket as Partial<TLSSocket>).encrypted === true,
    forwardedProto: request.headers['x-forwarded-proto'],
    trustedProxies: proxies,
  });
}
