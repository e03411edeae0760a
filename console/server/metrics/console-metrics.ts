/**
 * The console's metrics on a given prom-client Registry (prefix `tollgate_console_`): HTTP
 * requests by route pattern and status class with their duration, sign-ins by method and result,
 * and the Kubernetes API calls the console makes, by verb, resource and result, with their
 * duration. `tollgate console` serves the registry on its metrics port; `tollgate local` passes the
 * registry of its gateway metrics port.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { KubeCallObservation } from '../kubernetes/kube-client.js';
import {
  SIGN_IN_OUTCOMES,
  kubeResource,
  kubeResult,
  kubeVerb,
  methodLabel,
  routeLabel,
  signInOutcome,
  statusClass,
} from './console-metric-labels.js';

const PREFIX = 'tollgate_console_';

export interface ObservedRequest {
  method: string;
  /** The route pattern fastify matched; undefined when none did. */
  pattern: string | undefined;
  url: string;
  statusCode: number;
  seconds: number;
}

export class ConsoleMetrics {
  readonly httpRequests: Counter<'method' | 'route' | 'status_class'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly signIns: Counter<'method' | 'result'>;
  readonly kubeRequests: Counter<'verb' | 'resource' | 'result'>;
  readonly kubeDuration: Histogram<'verb'>;

  constructor(readonly registry: Registry) {
    const registers = [registry];
    this.httpRequests = new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'Console HTTP requests by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Console HTTP request durations by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.signIns = new Counter({
      name: `${PREFIX}sign_ins_total`,
      help: 'Sign-ins by method (local, oidc) and result (success, bad_credentials, rate_limited, oidc_error, error).',
      labelNames: ['method', 'result'],
      registers,
    });
    // Known from the start, so that rate() and increase() see the first failure too.
    for (const labels of SIGN_IN_OUTCOMES) this.signIns.inc(labels, 0);
    this.kubeRequests = new Counter({
      name: `${PREFIX}kubernetes_requests_total`,
      help: 'Kubernetes API calls of the console by verb, resource and result.',
      labelNames: ['verb', 'resource', 'result'],
      registers,
    });
    this.kubeDuration = new Histogram({
      name: `${PREFIX}kubernetes_request_duration_seconds`,
      help: 'Kubernetes API call durations of the console by verb.',
      labelNames: ['verb'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers,
    });
  }

  observeRequest(request: ObservedRequest): void {
    const method = methodLabel(request.method);
    const route = routeLabel(request.pattern, request.url);
    this.httpRequests.inc({ method, route, status_class: statusClass(request.statusCode) });
    this.httpDuration.observe({ method, route }, request.seconds);
    const signIn = signInOutcome({ method, route, statusCode: request.statusCode });
    if (signIn !== undefined) this.signIns.inc(signIn);
  }

  /** Passed to the KubeClient: one observation per call, answered or not. */
  readonly observeKubeCall = (call: KubeCallObservation): void => {
    const verb = kubeVerb(call.method, call.path);
    this.kubeRequests.inc({
      verb,
      resource: kubeResource(call.path),
      result: kubeResult(call.status),
    });
    this.kubeDuration.observe({ verb }, call.seconds);
  };
}
