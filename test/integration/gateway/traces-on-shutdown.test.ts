/**
 * `run-gateway.ts` as a real process with tracing set by the standard OpenTelemetry variables only:
 * a streamed call's spans, ended while the process drains on SIGTERM, reach the collector before
 * the process exits (the export queue is flushed at close, well before its one-second batch delay),
 * with the export headers and the service name the variables give.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.js';
import { postMessage, startGatewayProcess, type GatewayProcess } from './spawn-run-gateway.js';

let receiver: OtlpReceiver;
let gateway: GatewayProcess;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  gateway = await startGatewayProcess({
    namespace: 'team-traced-drain',
    env: {
      TOLLGATE_LOG_LEVEL: 'silent',
      TOLLGATE_DRAIN_TIMEOUT_MS: '10000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-token',
      OTEL_SERVICE_NAME: 'tollgate-drain-test',
    },
  });
}, 60_000);

afterAll(async () => {
  await gateway.stop();
  await receiver.close();
});

it('exports the spans of a call that ended during the drain before it exits', async () => {
  const { child, fake } = gateway;
  fake.setBehaviour({ chunkGapMs: 100, chunks: 5 });
  const streaming = await postMessage(gateway, { stream: true });
  expect(streaming.statusCode).toBe(200);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect(await streaming.body.text()).toContain('event: message_stop');
  const [code] = (await exited) as [number | null];
  expect(code).toBe(0);

  // Everything arrived by the time the process exited: no waiting here.
  const kinds = receiver.spans.map((span) => span.kind).sort();
  expect(kinds).toEqual([2, 3]);
  expect(receiver.spans[0]?.resource['service.name']).toBe('tollgate-drain-test');
  expect(receiver.lastHeaders.authorization).toBe('Bearer collector-token');
  const server = receiver.spans.find((span) => span.kind === 2);
  expect(server?.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
});
