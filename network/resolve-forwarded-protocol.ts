/**
 * The protocol the client used: `https` when the connection itself is TLS, else the first
 * `X-Forwarded-Proto` entry when the connection comes from a trusted proxy (the proxy that
 * terminated TLS sets it), else `http`. From anyone else the header is ignored.
 */
import { addressInRanges, cachedAddress, type ParsedRange } from './match-source-ranges.js';

export interface ForwardedProtocolInput {
  socketAddress: string | undefined;
  /** The connection is TLS (the server itself terminates it). */
  encrypted: boolean;
  /** The raw header value(s). */
  forwardedProto: string | readonly string[] | undefined;
  trustedProxies: readonly ParsedRange[];
}

export function resolveForwardedProtocol(input: ForwardedProtocolInput): 'http' | 'https' {
  if (input.encrypted) return 'https';
  if (input.forwardedProto === undefined || input.socketAddress === undefined) return 'http';
  const socket = cachedAddress(input.socketAddress);
  if (socket === null || !addressInRanges(socket, input.trustedProxies)) return 'http';
  const header =
    typeof input.forwardedProto === 'string'
      ? input.forwardedProto
      : input.forwardedProto.join(',');
  const first = header.split(',')[0]?.trim().toLowerCase();
  return first === 'https' ? 'https' : 'http';
}
