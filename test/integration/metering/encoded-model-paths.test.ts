/**
 * Model names carried in the path (Gemini and Antigravity v1beta routes) against the real gateway
 * and the real fake upstream: an encoded traversal, dot segment or control character is refused
 * with a 400 in the Google error shape and never reaches the upstream, even for a key whose allow
 * list and pricing fallback would accept the decoded name; a valid name that was percent-encoded
 * reaches the upstream rebuilt from the decoded name. Before, the decoded name was checked while
 * the raw path was forwarded with the gateway's upstream credential.
 */
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../crds/schema/resources.js';
import { STORE_KINDS, useMeteringGateway, type CallOptions } from './metering-harness.js';

const fallback = { input: 1_000, output: 10_000, cacheRead: 100, cacheWrite5m: 0, cacheWrite1h: 0 };
const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

interface PathRoute {
  platform: Platform;
  prefix: string;
  model: string;
  header: NonNullable<CallOptions['header']>;
}

const routes: PathRoute[] = [
  {
    platform: 'Gemini',
    prefix: '/v1beta/models/',
    model: 'gemini-2.5-flash',
    header: 'x-goog-api-key',
  },
  {
    platform: 'Antigravity',
    prefix: '/antigravity/v1beta/models/',
    model: 'gemini-3-pro-high',
    header: 'authorization',
  },
];

const unsafeSuffixes = [
  '%2F..%2F..%2Fv1%2Fmessages',
  '%2F..%2F..%2Fv1internal',
  '%2F%2E%2E%2F%2E%2E%2Fv1%2Fmessages',
  '%00',
  '%0D%0Ax-injected%3A%201',
  '%5C..%5C..%5Cv1%5Cmessages',
];

describe.each(STORE_KINDS)('encoded model names on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  const keyFor = (route: PathRoute) =>
    env.key({
      platform: route.platform,
      overrides: { modelsAllow: [`${route.model}*`] },
      group: { modelsAllow: [`${route.model}*`], priceFallback: fallback },
    });

  describe.each(routes)('$prefix', (route) => {
    it.each(unsafeSuffixes)('refuses %s before the upstream sees it', async (suffix) => {
      const key = await keyFor(route);
      const result = await env.call({
        path: `${route.prefix}${route.model}${suffix}:generateContent`,
        apiKey: key.value,
        body,
        header: route.header,
      });
      expect(result.status).toBe(400);
      const refusal = JSON.parse(result.text) as { error: Record<string, unknown> };
      expect(refusal.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(refusal.error.message).toContain('TG_MODEL_NAME_INVALID');
      expect(env.fake.requests.filter((request) => !request.path.includes('oauth'))).toEqual([]);
      const counters = await env.store.keyCounters(env.namespace, key.keyUid, Date.now());
      expect(counters).toMatchObject({ reservedNano: 0, usedNano: 0 });
    });

    it('forwards a percent-encoded valid name rebuilt from the decoded name', async () => {
      const key = await keyFor(route);
      const encoded = route.model.replaceAll('-', '%2D');
      const result = await env.call({
        path: `${route.prefix}${encoded}:generateContent`,
        apiKey: key.value,
        body,
        header: route.header,
      });
      expect(result.status).toBe(200);
      const upstream = env.fake.requests.filter((request) => !request.path.includes('oauth'));
      expect(upstream).toHaveLength(1);
      if (route.platform === 'Gemini') {
        expect(upstream[0]?.path).toBe(`/v1beta/models/${route.model}:generateContent`);
      } else {
        expect(upstream[0]?.path).toBe('/v1internal:generateContent');
        expect((upstream[0]?.body as { model?: unknown }).model).toBe(route.model);
      }
    });
  });
});
