import { describe, expect, it } from 'vitest';
import { isSourceDenied, parseRanges } from './match-source-ranges.js';
import { resolveCallerIp } from './resolve-caller-ip.js';

const trusted = parseRanges(['10.0.0.0/8', 'fd00::/8', '127.0.0.1']);

describe('resolveCallerIp', () => {
  it.each([
    ['untrusted socket ignores the header', '203.0.113.9', '1.2.3.4', '203.0.113.9'],
    [
      'trusted socket takes the right-most untrusted entry',
      '10.0.0.2',
      '1.2.3.4, 198.51.100.7, 10.1.1.1',
      '198.51.100.7',
    ],
    ['all entries trusted: the left-most', '10.0.0.2', '10.9.9.9, 10.1.1.1', '10.9.9.9'],
    ['no header from a trusted proxy: the proxy', '10.0.0.2', undefined, '10.0.0.2'],
    ['IPv4-mapped IPv6 socket normalised', '::ffff:203.0.113.9', undefined, '203.0.113.9'],
    ['IPv4-mapped trusted socket', '::ffff:10.0.0.2', '2001:db8::1', '2001:db8::1'],
    ['IPv6 trusted proxy', 'fd00::5', '2001:db8::7', '2001:db8::7'],
    [
      'malformed hop stops at the closest trusted proxy',
      '10.0.0.2',
      '1.2.3.4, garbage, 10.1.1.1',
      '10.1.1.1',
    ],
    ['spoofed left entries are ignored', '127.0.0.1', '6.6.6.6, 198.51.100.1', '198.51.100.1'],
  ])('%s', (_name, socket, header, expected) => {
    expect(
      resolveCallerIp({ socketAddress: socket, forwardedFor: header, trustedProxies: trusted }),
    ).toBe(expected);
  });

  it('joins repeated headers in order', () => {
    expect(
      resolveCallerIp({
        socketAddress: '10.0.0.2',
        forwardedFor: ['198.51.100.1', '10.3.3.3'],
        trustedProxies: trusted,
      }),
    ).toBe('198.51.100.1');
  });
});

describe('isSourceDenied', () => {
  it.each([
    ['no lists', '1.2.3.4', [], [], false],
    ['in allow CIDR', '192.168.1.20', ['192.168.1.0/24'], [], false],
    ['outside allow CIDR', '192.168.2.20', ['192.168.1.0/24'], [], true],
    ['single address allow', '203.0.113.5', ['203.0.113.5'], [], false],
    ['deny wins over allow', '192.168.1.20', ['192.168.1.0/24'], ['192.168.1.20'], true],
    ['deny only, not listed', '8.8.8.8', [], ['10.0.0.0/8'], false],
    ['deny only, listed', '10.2.3.4', [], ['10.0.0.0/8'], true],
    ['IPv6 in range', '2001:db8::42', ['2001:db8::/32'], [], false],
    ['IPv6 out of range', '2001:db9::42', ['2001:db8::/32'], [], true],
    ['IPv4-mapped caller matches IPv4 range', '::ffff:192.168.1.9', ['192.168.1.0/24'], [], false],
    ['IPv4 caller matches IPv4-mapped range', '192.168.1.9', ['::ffff:192.168.1.0/120'], [], false],
    ['IPv4 caller against IPv6-only allow', '192.168.1.9', ['2001:db8::/32'], [], true],
    ['unparsable caller with lists', 'nonsense', ['0.0.0.0/0'], [], true],
  ])('%s', (_name, ip, allow, deny, expected) => {
    expect(isSourceDenied(ip, { allow, deny })).toBe(expected);
  });
});
