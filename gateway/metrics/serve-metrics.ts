/** The metrics endpoint on its own port (a second fastify instance), so it is never public. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

export function buildMetricsServer(registry: Registry): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/metrics', async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
  return app;
}
