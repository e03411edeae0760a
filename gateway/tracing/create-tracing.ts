/**
 * Tracing, when `--otlp-endpoint` is set (docs/observability.md): one tracer provider for the
 * gateway process, a parent-based ratio sampler (a caller's sampled flag trusted or not:
 * `--trace-parent-sampling`), the bounded batching processor and the OTLP/HTTP
 * protobuf exporter. Nothing global is registered: the request's end starts each call's server
 * span from here (`startCall`), continuing the caller's W3C `traceparent`/`tracestate`. Without an
 * endpoint there is no tracing object at all (`createTracing` gives null) and the request path
 * only tests `tracing !== null` once per request.
 */
import { ROOT_CONTEXT, SpanKind, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type { FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { createTracingMetrics } from '../metrics/tracing-metrics.js';
import { BoundedSpanProcessor } from './bounded-span-processor.js';
import { CallTrace } from './call-trace.js';
import { tracesUrl, type OtlpExportSettings } from './otlp-environment.js';

export interface TracingSettings {
  otlpEndpoint?: string | undefined;
  traceSampleRatio: number;
  traceParentSampling: 'respect' | 'ignore';
  traceQueueSize: number;
  otlpExport: OtlpExportSettings;
}

export interface Tracing {
  /** The server span of a call arriving now. */
  startCall(request: FastifyRequest, route: string, callerIp: string): CallTrace;
  /** Exports what is queued and stops the exporter (the gateway's close, after the drain). */
  shutdown(): Promise<void>;
}

/** Spans per export request at most, and the longest wait for a partial batch. */
const MAX_BATCH_SIZE = 512;
const EXPORT_DELAY_MS = 1_000;
const EXPORT_TIMEOUT_MS = 10_000;

const propagator = new W3CTraceContextPropagator();

const headerGetter = {
  get(carrier: FastifyRequest['headers'], key: string): string | string[] | undefined {
    return carrier[key];
  },
  keys(carrier: FastifyRequest['headers']): string[] {
    return Object.keys(carrier);
  },
};

/** The request's path without its query (which may carry a key). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function startCall(
  tracer: Tracer,
  input: { request: FastifyRequest; route: string; callerIp: string },
) {
  const { request } = input;
  const parent = propagator.extract(ROOT_CONTEXT, request.headers, headerGetter);
  const userAgent = request.headers['user-agent'];
  const span = tracer.startSpan(
    `${request.method} ${input.route}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'http.route': input.route,
        'url.path': pathOf(request.url),
        'client.address': input.callerIp,
        'tollgate.request_id': request.id,
        ...(typeof userAgent === 'string' ? { 'user_agent.original': userAgent } : {}),
      },
    },
    parent,
  );
  return new CallTrace(tracer, span);
}

/**
 * Parent-based on the ratio. With `ignore`, a caller's (remote) sampled flag does not decide: the
 * ratio does, over the caller's trace id; spans of the gateway's own (local) parents follow them.
 */
function sampler(settings: TracingSettings): ParentBasedSampler {
  const ratio = new TraceIdRatioBasedSampler(settings.traceSampleRatio);
  if (settings.traceParentSampling === 'respect') return new ParentBasedSampler({ root: ratio });
  return new ParentBasedSampler({
    root: ratio,
    remoteParentSampled: ratio,
    remoteParentNotSampled: ratio,
  });
}

/** The tracing of a gateway process; null when no endpoint is set. */
export function createTracing(
  settings: TracingSettings,
  options: { registry: Registry; exporter?: SpanExporter },
): Tracing | null {
  if (settings.otlpEndpoint === undefined) return null;
  const metrics = createTracingMetrics(options.registry);
  const exporter =
    options.exporter ??
    new OTLPTraceExporter({
      url: settings.otlpExport.wholeTracesUrl
        ? settings.otlpEndpoint
        : tracesUrl(settings.otlpEndpoint),
      headers: { ...settings.otlpExport.headers },
      timeoutMillis: EXPORT_TIMEOUT_MS,
    });
  const processor = new BoundedSpanProcessor({
    exporter,
    maxQueueSize: settings.traceQueueSize,
    maxBatchSize: Math.min(MAX_BATCH_SIZE, settings.traceQueueSize),
    delayMs: EXPORT_DELAY_MS,
    onDropped: (count, reason) => {
      metrics.droppedSpans.inc({ reason }, count);
    },
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.otlpExport.serviceName }),
    sampler: sampler(settings),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('tollgate-gateway');
  return {
    startCall: (request, route, callerIp) => startCall(tracer, { request, route, callerIp }),
    shutdown: () => provider.shutdown(),
  };
}
