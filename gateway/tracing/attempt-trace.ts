/**
 * The client span of one upstream attempt (kind CLIENT, child of the call's server span): started
 * by the forward stage before the attempt, given the prepared call's address and the `traceparent`
 * it sends upstream (`send`), and ended with the attempt's outcome: at once for a failed attempt,
 * at the call's end for the one that served it (with the call's usage and cost).
 */
import { ROOT_CONTEXT, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { serverAttributes } from './describe-spans.js';

const propagator = new W3CTraceContextPropagator();

const headerSetter = {
  set(carrier: Record<string, string>, key: string, value: string): void {
    carrier[key] = value;
  },
};

/** How an attempt ended, as the forward stage classified it (classify-attempt.ts). */
export interface AttemptEnd {
  /** The upstream's status; null when none arrived. */
  status: number | null;
  outcome: string;
  /** The Tollgate error code of a failure that is the gateway's (a transport error). */
  errorCode: string | null;
}

export class AttemptTrace {
  readonly span: Span;
  #ended = false;

  constructor(span: Span) {
    this.span = span;
  }

  /**
   * The prepared call goes out: its address is recorded and its `traceparent` (and `tracestate`)
   * replaced by this span's, so the upstream's own trace continues from the attempt.
   */
  send(origin: string, headers: Record<string, string>): void {
    if (this.span.isRecording()) this.span.setAttributes(serverAttributes(origin));
    propagator.inject(trace.setSpan(ROOT_CONTEXT, this.span), headers, headerSetter);
  }

  /** Records the attempt's outcome; ends the span unless it served the call. */
  settle(end: AttemptEnd, serving: boolean): void {
    if (this.#ended) return;
    const { span } = this;
    if (!span.isRecording()) {
      if (!serving) this.end();
      return;
    }
    if (end.status !== null) span.setAttribute('http.response.status_code', end.status);
    span.setAttribute('tollgate.outcome', end.outcome);
    if (end.errorCode !== null) span.setAttribute('tollgate.error_code', end.errorCode);
    if (end.outcome !== 'ok') {
      const type = end.errorCode ?? (end.status === null ? end.outcome : String(end.status));
      span.setAttribute('error.type', type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    }
    if (!serving) this.end();
  }

  /** Ends the span (once); the serving attempt's at the call's end. */
  end(endTime?: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.span.end(endTime);
  }
}
