import { describe, expect, it } from 'vitest';
import { parseRanges } from './match-source-ranges.js';
import { resolveForwardedProtocol } from './resolve-forwarded-protocol.js';

const trusted = parseRanges(['10.0.0.0/8', '::1']);

describe('resolveForwardedProtocol', () => {
  it.each([
    ['TLS on the connection itself', '203.0.113.9', true, undefined, 'https'],
    ['a trusted proxy that terminated TLS', '10.0.0.2', false, 'https', 'https'],
    ['IPv4-mapped trusted proxy, upper case', '::ffff:10.0.0.2', false, 'HTTPS', 'https'],
    ['the first of a list', '10.0.0.2', false, 'https, http', 'https'],
    ['a trusted proxy reached over http', '10.0.0.2', false, 'http', 'http'],
    ['an untrusted peer claiming https', '203.0.113.9', false, 'https', 'http'],
    ['no header', '10.0.0.2', false, undefined, 'http'],
    ['an unknown value', '::1', false, 'wss', 'http'],
  ] as const)('%s', (_name, socket, encrypted, header, expected) => {
    expect(
      resolveForwardedProtocol({
        socketAddress: socket,
        encrypted,
        forwardedProto: header,
        trustedProxies: trusted,
      }),
    ).toBe(expected);
  });
});
