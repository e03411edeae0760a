/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the store answers). */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/store.js';

export interface HealthState {
  draining: boolean;
}

export function registerHealthRoutes(
  app: FastifyInstance,
  dependencies: { store: Pick<Store, 'ping'>; health: HealthState },
): void {
  app.get('/healthz', () => Promise.resolve({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (dependencies.health.draining) return reply.code(503).send({ status: 'draining' });
    try {
      await dependencies.store.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'store unavailable' });
    }
  });
}
