/**
 * `GET /v1/usage` and `GET /antigravity/v1/usage`: the calling key's quota, windows and usage
 * (render-key-usage.ts), for clients that show a balance (CC Switch's usage script). The key is
 * authorized like a model list (missing, unknown, suspended, expired, source ranges refused the
 * same way) from any of the headers the gateway reads a key from; the answer is built from that
 * key's own counters only, so no key can read another's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../../store/store.js';
import { GatewayError } from '../errors/gateway-error.js';
import '../stages/request/route-config.js';
import type { RouteProfile } from '../stages/request/route-profile.js';
import { renderKeyUsage } from './render-key-usage.js';

const anyKeyHeader: RouteProfile['keySources'] = ['bearer', 'x-api-key', 'x-goog-api-key'];

export const USAGE_ROUTES: { path: string; profile: RouteProfile }[] = [
  {
    path: '/v1/usage',
    profile: {
      platforms: ['Anthropic', 'OpenAI', 'Gemini', 'Antigravity'],
      keySources: anyKeyHeader,
      errorShape: 'by-platform',
      forwarded: false,
    },
  },
  {
    path: '/antigravity/v1/usage',
    profile: {
      platforms: ['Antigravity'],
      keySources: anyKeyHeader,
      errorShape: 'by-platform',
      forwarded: false,
    },
  },
];

export function registerUsageRoutes(
  app: FastifyInstance,
  dependencies: { store: Pick<Store, 'keyCounters'>; clock: () => number },
): void {
  for (const route of USAGE_ROUTES) {
    app.get(route.path, { config: { profile: route.profile } }, async (request: FastifyRequest) => {
      const key = request.tollgate.authorized;
      if (key === null)
        throw new GatewayError('TG_INTERNAL', { detail: 'usage route without a key' });
      const counters = await dependencies.store.keyCounters(
        key.namespace,
        key.keyUid,
        dependencies.clock(),
      );
      return renderKeyUsage(key, counters);
    });
  }
}
