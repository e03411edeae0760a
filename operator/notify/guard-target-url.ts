/**
 * Pure: whether a notifier may send to a URL. Only http and https; never to link-local addresses
 * (169.254.0.0/16, fe80::/10: the cloud metadata endpoints live there) nor the unspecified
 * address; loopback (127.0.0.0/8, ::1, localhost) only when the operator allows it
 * (`--notifier-allow-loopback`, for tests and local mode). Names are checked as written: a name that
 * resolves to a refused address is refused at connection time by the sender's lookup.
 */
import { isIP } from 'node:net';

export interface TargetGuard {
  allowLoopback: boolean;
}

export type GuardResult = { ok: true; url: URL } | { ok: false; reason: string };

function ipv4Octets(address: string): number[] | null {
  if (isIP(address) !== 4) return null;
  return address.split('.').map(Number);
}

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`, or in hex as URL writes it). */
function mappedIpv4(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (dotted !== undefined) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (hex === null) return null;
  const high = parseInt(hex[1] ?? '0', 16);
  const low = parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why an address is refused, or null when it is allowed. */
export function refusedAddress(address: string, guard: TargetGuard): string | null {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = ipv4Octets(mappedIpv4(bare) ?? bare);
  if (v4 !== null) {
    if (v4[0] === 169 && v4[1] === 254) return 'a link-local address (cloud metadata)';
    if (v4[0] === 0) return 'an unspecified address';
    if (v4[0] === 127 && !guard.allowLoopback) return 'a loopback address';
    return null;
  }
  if (isIP(bare) === 6) {
    if (/^fe[89ab][0-9a-f]?:/.test(bare)) return 'a link-local address';
    if (bare === '::') return 'an unspecified address';
    if (bare === '::1' && !guard.allowLoopback) return 'a loopback address';
    return null;
  }
  if ((bare === 'localhost' || bare.endsWith('.localhost')) && !guard.allowLoopback) {
    return 'a loopback address';
  }
  if (bare === 'metadata.google.internal') return 'a cloud metadata name';
  return null;
}

export function guardTargetUrl(text: string, guard: TargetGuard): GuardResult {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'only http and https URLs are allowed' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'credentials in the URL are not allowed' };
  }
  const refused = refusedAddress(url.hostname, guard);
  return refused === null ? { ok: true, url } : { ok: false, reason: `the URL names ${refused}` };
}
