/**
 * A TCP proxy on 127.0.0.1 in front of a real server, for tests that cut the network to it: `cut()`
 * resets every connection through it and refuses new ones (as a server that went away, or a
 * network partition that the kernel reports) until `restore()`. The server itself is never
 * stopped, so a shared one (the machine's PostgreSQL) can stand behind it.
 */
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttableProxy {
  port: number;
  cut(): void;
  restore(): void;
  /** Connections refused while cut. */
  readonly refused: number;
  /** Connections accepted and passed on. */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: {
  host: string;
  port: number;
}): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  let cutOff = false;
  let refused = 0;
  let accepted = 0;
  const server = createServer((client) => {
    if (cutOff) {
      refused += 1;
      client.resetAndDestroy();
      return;
    }
    accepted += 1;
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      cutOff = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore: () => {
      cutOff = false;
    },
    get refused() {
      return refused;
    },
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
