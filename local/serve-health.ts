/**
 * The placeholder on the gateway port: `GET /healthz`. The gateway takes this port over later; the
 * launcher only needs something with `address` and `close()`.
 */
import Fastify from 'fastify';

export interface GatewayPortServer {
  url: string;
  close(): Promise<void>;
}

export async function serveHealth(listen: {
  host: string;
  port: number;
}): Promise<GatewayPortServer> {
  const app = Fastify({ logger: false });
  app.get('/healthz', () => ({ status: 'ok' }));
  const url = await app.listen({ host: listen.host, port: listen.port });
  return {
    url,
    close: async () => {
      await app.close();
    },
  };
}
