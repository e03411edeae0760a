/**
 * The origins a state-changing call may come from: the console's configured public origins and
 * the extra allowed ones. Without public origins, the console's own listening address on
 * loopback, so that `tollgate local` and a port-forward work with nothing set, and a forged Host
 * header never widens the list.
 */
import type { AddressInfo } from 'node:net';
import type { ConsoleConfig } from '../console-config.js';

const WILDCARDS = new Set(['0.0.0.0', '::']);

function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.');
}

/** `http://` origins under which a browser on this machine reaches a server listening here. */
export function listeningOrigins(address: Pick<AddressInfo, 'address' | 'port'>): string[] {
  const port = address.port;
  const origins: string[] = [];
  if (WILDCARDS.has(address.address) || isLoopback(address.address)) {
    origins.push(`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`);
  }
  if (!WILDCARDS.has(address.address)) {
    const host = address.address.includes(':') ? `[${address.address}]` : address.address;
    origins.push(new URL(`http://${host}:${port}`).origin);
  }
  return [...new Set(origins)];
}

export function permittedOrigins(
  config: Pick<ConsoleConfig, 'publicOrigins' | 'allowedOrigins'>,
  listening: Pick<AddressInfo, 'address' | 'port'> | undefined,
): string[] {
  const own =
    config.publicOrigins.length > 0
      ? config.publicOrigins.map((origin) => new URL(origin).origin)
      : listening === undefined
        ? []
        : listeningOrigins(listening);
  return [...new Set([...own, ...config.allowedOrigins.map((origin) => new URL(origin).origin)])];
}
