/**
 * The caller's IP address: the socket address, unless the connection comes from a trusted proxy;
 * then the right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
 */
import {
  addressInRanges,
  cachedAddress,
  parseAddress,
  type ParsedRange,
} from './match-source-ranges.js';

export interface CallerIpInput {
  socketAddress: string | undefined;
  /** The raw header value(s); several headers are joined in order. */
  forwardedFor: string | readonly string[] | undefined;
  trustedProxies: readonly ParsedRange[];
}

export function resolveCallerIp(input: CallerIpInput): string {
  const socket = input.socketAddress === undefined ? null : cachedAddress(input.socketAddress);
  if (socket === null) return input.socketAddress ?? '';
  if (!addressInRanges(socket, input.trustedProxies) || input.forwardedFor === undefined) {
    return socket.toString();
  }
  const header =
    typeof input.forwardedFor === 'string' ? input.forwardedFor : input.forwardedFor.join(',');
  const entries = header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  let closest = socket;
  for (let index = entries.length - 1; index >= 0; index--) {
    const address = parseAddress(entries[index] ?? '');
    // A malformed hop cannot be attributed: stop at the last proxy we trust.
    if (address === null) return closest.toString();
    if (!addressInRanges(address, input.trustedProxies)) return address.toString();
    closest = address;
  }
  return closest.toString();
}
