/**
 * The metrics endpoint on its own port (a second fastify instance), so it is never public. With
 * `--workers N` the primary serves it from an `AggregatorRegistry` (`clusterMetrics()`: every
 * worker's registry, counters and histograms summed), so a scrape sees the whole process group.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export interface MetricsSource {
  contentType: string;
  metrics(): Promise<string>;
}

export function buildMetricsServer(registry: MetricsSource): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/metrics', async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
  return app;
}
