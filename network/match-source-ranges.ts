/** Pure IP matching against address / CIDR lists (IPv4, IPv6, IPv4-mapped IPv6) with ipaddr.js. */
import ipaddr from 'ipaddr.js';
import { remembered } from './remember-parses.js';

export type ParsedAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type ParsedRange = [ParsedAddress, number];

/** Parses an address (IPv4-mapped IPv6 becomes IPv4); null when it is not an IP address. */
export function parseAddress(text: string): ParsedAddress | null {
  const trimmed = text.trim().replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(trimmed)) return null;
  return ipaddr.process(trimmed);
}

/** Parses `a.b.c.d`, `a.b.c.d/n`, `v6` or `v6/n`; a bare address is a single-host range. */
export function parseRange(text: string): ParsedRange | null {
  const trimmed = text.trim();
  if (trimmed.includes('/')) {
    try {
      const [address, bits] = ipaddr.parseCIDR(trimmed);
      if (
        address.kind() === 'ipv6' &&
        (address as ipaddr.IPv6).isIPv4MappedAddress() &&
        bits >= 96
      ) {
        return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
      }
      return [address, bits];
    } catch {
      return null;
    }
  }
  const address = parseAddress(trimmed);
  if (address === null) return null;
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

export function parseRanges(texts: readonly string[]): ParsedRange[] {
  return texts.map(parseRange).filter((range): range is ParsedRange => range !== null);
}

/** Key policies repeat the same few range strings on every request: parse each one once. */
const cachedRange = remembered(parseRange);

function cachedRanges(texts: readonly string[]): ParsedRange[] {
  const ranges: ParsedRange[] = [];
  for (const text of texts) {
    const range = cachedRange(text);
    if (range !== null) ranges.push(range);
  }
  return ranges;
}

/** `parseAddress` for callers, who come back from the same few addresses (kept-alive connections). */
export const cachedAddress = remembered(parseAddress);

export function addressInRange(address: ParsedAddress, range: ParsedRange): boolean {
  const [base] = range;
  if (address.kind() === base.kind()) return address.match(range);
  if (address.kind() === 'ipv4' && base.kind() === 'ipv6') {
    return (address as ipaddr.IPv4).toIPv4MappedAddress().match(range);
  }
  return false;
}

export function addressInRanges(address: ParsedAddress, ranges: readonly ParsedRange[]): boolean {
  return ranges.some((range) => addressInRange(address, range));
}

/**
 * True when the caller is refused: its address is in the deny list, or an allow list exists and
 * the address is not in it. An unparsable caller address is refused whenever any list is set.
 */
export function isSourceDenied(
  callerIp: string,
  ranges: { allow: readonly string[]; deny: readonly string[] },
): boolean {
  if (ranges.allow.length === 0 && ranges.deny.length === 0) return false;
  const address = cachedAddress(callerIp);
  if (address === null) return true;
  if (addressInRanges(address, cachedRanges(ranges.deny))) return true;
  return ranges.allow.length > 0 && !addressInRanges(address, cachedRanges(ranges.allow));
}
