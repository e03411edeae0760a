import { randomBytes } from 'node:crypto';
import { TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import type { FastifyRequest } from 'fastify';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OTLP_EXPORT } from './otlp-environment.js';
import { createTracing } from './create-tracing.js';

/** What the server span reads of a request: its headers, method, URL and id. */
function arriving(traceparent: string): FastifyRequest {
  return {
    headers: { traceparent },
    method: 'POST',
    url: '/v1/messages',
    id: 'request-one',
  } as unknown as FastifyRequest;
}

function callerParent(sampled: boolean) {
  const traceId = randomBytes(16).toString('hex');
  const header = `00-${traceId}-${randomBytes(8).toString('hex')}-${sampled ? '01' : '00'}`;
  return { traceId, header };
}

/** The server span's trace id and whether it is sampled, for a caller's parent. */
function decide(
  traceParentSampling: 'respect' | 'ignore',
  traceSampleRatio: number,
  sampled: boolean,
) {
  const tracing = createTracing(
    {
      otlpEndpoint: 'http://127.0.0.1:4318',
      traceSampleRatio,
      traceParentSampling,
      traceQueueSize: 16,
      otlpExport: DEFAULT_OTLP_EXPORT,
    },
    { registry: new Registry(), exporter: new InMemorySpanExporter() },
  );
  if (tracing === null) throw new Error('tracing is on');
  const parent = callerParent(sampled);
  const { span } = tracing.startCall(arriving(parent.header), '/v1/messages', '127.0.0.1');
  const context = span.spanContext();
  span.end();
  return {
    sameTrace: context.traceId === parent.traceId,
    sampled: (context.traceFlags & TraceFlags.SAMPLED) !== 0,
  };
}

describe("the sampler and a caller's sampled flag", () => {
  it('with respect, follows the flag whatever the ratio', () => {
    expect(decide('respect', 0, true)).toEqual({ sameTrace: true, sampled: true });
    expect(decide('respect', 1, false)).toEqual({ sameTrace: true, sampled: false });
  });

  it("with ignore, decides by the ratio and still continues the caller's trace", () => {
    expect(decide('ignore', 0, true)).toEqual({ sameTrace: true, sampled: false });
    expect(decide('ignore', 1, false)).toEqual({ sameTrace: true, sampled: true });
  });

  it('registers the drop counter with both reasons at zero', async () => {
    const registry = new Registry();
    createTracing(
      {
        otlpEndpoint: 'http://127.0.0.1:4318',
        traceSampleRatio: 1,
        traceParentSampling: 'respect',
        traceQueueSize: 16,
        otlpExport: DEFAULT_OTLP_EXPORT,
      },
      { registry, exporter: new InMemorySpanExporter() },
    );
    const dropped = await registry.getSingleMetric('tollgate_trace_spans_dropped_total')?.get();
    expect(dropped?.values.map((value) => [value.labels.reason, value.value])).toEqual([
      ['queue_full', 0],
      ['export_failed', 0],
    ]);
  });
});
