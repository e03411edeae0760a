/**
 * `run-gateway.ts` as a real process: configuration from flags and TOLLGATE_* variables, the
 * metrics port, and the graceful drain on SIGTERM (a stream in flight finishes, then exit 0).
 */
import { once } from 'node:events';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postMessage, startGatewayProcess, type GatewayProcess } from './spawn-run-gateway.js';

let gateway: GatewayProcess;

beforeAll(async () => {
  gateway = await startGatewayProcess({
    namespace: 'team-run',
    env: { TOLLGATE_LOG_LEVEL: 'silent', TOLLGATE_DRAIN_TIMEOUT_MS: '10000' },
  });
}, 60_000);

afterAll(async () => {
  await gateway.stop();
});

it('serves, exposes metrics on its own port and drains a stream on SIGTERM', async () => {
  const { child, metricsPort, fake } = gateway;
  const started = Date.now();
  const warm = await postMessage(gateway);
  expect(warm.statusCode).toBe(200);
  await warm.body.text();
  const metrics = await request(`http://127.0.0.1:${metricsPort}/metrics`);
  const metricsText = await metrics.body.text();
  expect(metricsText).toContain(
    'tollgate_requests_total{platform="Anthropic",status_class="2xx"} 1',
  );
  expect(metricsText).toContain('tollgate_process_cpu_seconds_total');

  fake.setBehaviour({ chunkGapMs: 100, chunks: 8 });
  const streaming = await postMessage(gateway, { stream: true });
  expect(streaming.statusCode).toBe(200);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const text = await streaming.body.text();
  expect(text).toContain('event: message_stop');
  const [code] = (await exited) as [number | null];
  expect(code).toBe(0);
  // Drained by the end of the stream, not by the 10 s deadline.
  expect(Date.now() - started).toBeLessThan(8_000);
});
