/**
 * Test support: a TCP proxy in front of a real server (PostgreSQL), which a test can cut. Cutting
 * stops listening and ends every forwarded connection, so the server is unreachable through it:
 * new connections are refused and pooled ones are dropped, as when a database host goes away.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Stops listening and destroys every open connection; resolves once the port is closed. */
  cut(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  let closed: Promise<void> | undefined;
  return {
    port: address.port,
    cut: () => {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
