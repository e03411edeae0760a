/** Gateway metrics on an injected prom-client Registry; labels only from bounded sets. */
import { Counter, Gauge, type Registry } from 'prom-client';
import { KeyedCounter, KeyedHistogram } from './keyed-metrics.js';

export interface GatewayMetrics {
  requests: KeyedCounter<'platform' | 'status_class'>;
  refusals: Counter<'platform' | 'reason'>;
  duration: KeyedHistogram<'platform' | 'status_class'>;
  timeToFirstByte: KeyedHistogram<'platform'>;
  /** Requests between arrival and the close of their response, by the route's platform. */
  inFlight: InFlightRequests;
}

/**
 * Requests in flight as plain counters, read into `tollgate_requests_in_flight{platform}` only when
 * scraped: no prom-client label lookup per request.
 */
export class InFlightRequests {
  readonly counts = new Map<string, number>();
  enter(platform: string): void {
    this.counts.set(platform, (this.counts.get(platform) ?? 0) + 1);
  }
  leave(platform: string): void {
    this.counts.set(platform, (this.counts.get(platform) ?? 1) - 1);
  }
}

export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  const inFlight = new InFlightRequests();
  new Gauge({
    name: 'tollgate_requests_in_flight',
    help: 'Requests received and not yet answered in full, by the route platform (none: several).',
    labelNames: ['platform'],
    registers: [registry],
    collect() {
      for (const [platform, count] of inFlight.counts) this.set({ platform }, count);
    },
  });
  return {
    inFlight,
    requests: new KeyedCounter({
      name: 'tollgate_requests_total',
      help: 'Requests answered by the gateway, by platform and status class.',
      labelNames: ['platform', 'status_class'],
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'tollgate_refusals_total',
      help: 'Requests refused or failed by the gateway, by platform and Tollgate error code.',
      labelNames: ['platform', 'reason'],
      registers: [registry],
    }),
    duration: new KeyedHistogram({
      name: 'tollgate_request_duration_seconds',
      help: 'Time from request to the end of the response, by platform and status class.',
      labelNames: ['platform', 'status_class'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    timeToFirstByte: new KeyedHistogram({
      name: 'tollgate_upstream_time_to_first_byte_seconds',
      help: 'Time from sending the upstream request to its response headers, by platform.',
      labelNames: ['platform'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
  };
}

/** The classes of the statuses an HTTP server sends, made once (not a new string per call). */
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

export function statusClass(statusCode: number): string {
  const index = Math.floor(statusCode / 100) - 1;
  return STATUS_CLASSES[index] ?? `${Math.floor(statusCode / 100)}xx`;
}
