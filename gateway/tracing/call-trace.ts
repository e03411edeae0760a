/**
 * The server span of one call (kind SERVER), started when the request's record is created (a child
 * of the caller's `traceparent` when it sent one) and ended by the request's end (request-end.ts),
 * after the settlement's bill when the call was admitted. The forward stage starts one attempt span
 * per upstream attempt from it (`startAttempt`); the settle stage leaves the bill (`noteBill`).
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { ResolvedUpstream } from '../spec/resolved-upstream.js';
import { AttemptTrace } from './attempt-trace.js';
import {
  genAiProvider,
  operationName,
  requestMaxTokens,
  usageAttributes,
  type CallBill,
  type GenAiProvider,
} from './describe-spans.js';

/** What the call's end reads of the request's record (request-record.ts). */
export interface EndedCall {
  authorized: {
    namespace: string;
    name: string;
    group: { name: string; platform: string } | null;
  } | null;
  admitted: {
    request: { accountUid: string; model: string | null; session: { id: string } | null };
    context: { path: string; json: unknown };
  } | null;
  attempts: { count: number; upstream: string | null; timeToFirstByteMs: number | null } | null;
  errorCode: string | null;
}

/** What the forward stage knows of an attempt before it starts. */
export interface AttemptStart {
  upstream: Pick<ResolvedUpstream, 'name' | 'platform' | 'provider'>;
  /** 1 for the first attempt, then one more per failover. */
  number: number;
  path: string;
  /** The model the attempt asks for (after the upstream's override). */
  model: string | null;
  json: unknown;
}

function genAiAttributes(provider: GenAiProvider, start: AttemptStart) {
  const attributes: Record<string, string | number> = {
    'gen_ai.provider.name': provider.name,
    'gen_ai.system': provider.system,
    'gen_ai.operation.name': operationName(start.path),
  };
  if (start.model !== null) attributes['gen_ai.request.model'] = start.model;
  const maxTokens = requestMaxTokens(start.json);
  if (maxTokens !== null) attributes['gen_ai.request.max_tokens'] = maxTokens;
  return attributes;
}

export class CallTrace {
  readonly span: Span;
  readonly #tracer: Tracer;
  /** The latest attempt's span, still open when it serves the call. */
  #attempt: AttemptTrace | null = null;
  #provider: GenAiProvider | null = null;
  #bill: CallBill | null = null;
  #ended = false;

  constructor(tracer: Tracer, span: Span) {
    this.#tracer = tracer;
    this.span = span;
  }

  startAttempt(start: AttemptStart): AttemptTrace {
    this.#attempt?.end();
    const parent = trace.setSpan(ROOT_CONTEXT, this.span);
    if (!this.span.isRecording()) {
      // Not sampled: a non-recording child, for its `traceparent` only; no attribute is built.
      const span = this.#tracer.startSpan('attempt', { kind: SpanKind.CLIENT }, parent);
      this.#attempt = new AttemptTrace(span);
      return this.#attempt;
    }
    const provider = genAiProvider(start.upstream.platform, start.upstream.provider.kind);
    this.#provider = provider;
    const operation = operationName(start.path);
    const span = this.#tracer.startSpan(
      start.model === null ? operation : `${operation} ${start.model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...genAiAttributes(provider, start),
          'tollgate.upstream': start.upstream.name,
          'tollgate.attempt': start.number,
        },
      },
      parent,
    );
    this.#attempt = new AttemptTrace(span);
    return this.#attempt;
  }

  /** The call's usage and cost, as the settle stage billed them. */
  noteBill(bill: CallBill): void {
    this.#bill = bill;
  }

  /**
   * Ends the call's spans, once: now, or when `settled` resolves (the bill is then known), with
   * the end time of the response either way.
   */
  endAfter(settled: Promise<void> | null, call: EndedCall, status: number): void {
    if (this.#ended) return;
    this.#ended = true;
    const endTime = Date.now();
    if (settled === null) {
      this.#finish(call, status, endTime);
      return;
    }
    const finish = (): void => {
      this.#finish(call, status, endTime);
    };
    void settled.then(finish, finish);
  }

  #finish(call: EndedCall, status: number, endTime: number): void {
    const { span } = this;
    if (!span.isRecording()) {
      this.#attempt?.end(endTime);
      span.end(endTime);
      return;
    }
    span.setAttribute('http.response.status_code', status);
    const key = call.authorized;
    if (key !== null) {
      span.setAttribute('tollgate.key', `${key.namespace}/${key.name}`);
      if (key.group !== null) span.setAttribute('tollgate.group', key.group.name);
    }
    const admitted = call.admitted;
    if (admitted !== null) {
      const { request } = admitted;
      span.setAttribute('tollgate.account', request.accountUid);
      span.setAttribute('gen_ai.operation.name', operationName(admitted.context.path));
      if (request.model !== null) span.setAttribute('gen_ai.request.model', request.model);
      const maxTokens = requestMaxTokens(admitted.context.json);
      if (maxTokens !== null) span.setAttribute('gen_ai.request.max_tokens', maxTokens);
      if (request.session !== null) span.setAttribute('session.id', request.session.id);
    }
    if (this.#provider !== null) {
      span.setAttribute('gen_ai.provider.name', this.#provider.name);
      span.setAttribute('gen_ai.system', this.#provider.system);
    }
    const attempts = call.attempts;
    if (attempts !== null) {
      span.setAttribute('tollgate.attempts', attempts.count);
      if (attempts.upstream !== null) span.setAttribute('tollgate.upstream', attempts.upstream);
      if (attempts.timeToFirstByteMs !== null) {
        span.setAttribute('tollgate.ttfb_ms', attempts.timeToFirstByteMs);
      }
    }
    if (this.#bill !== null) {
      const usage = usageAttributes(this.#bill);
      span.setAttributes(usage);
      this.#attempt?.span.setAttributes(usage);
    }
    const failed = call.errorCode !== null || status >= 500;
    span.setAttribute('tollgate.outcome', failed ? 'error' : 'ok');
    if (call.errorCode !== null) span.setAttribute('tollgate.error_code', call.errorCode);
    if (failed) {
      const type = call.errorCode ?? String(status);
      span.setAttribute('error.type', type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    }
    this.#attempt?.end(endTime);
    span.end(endTime);
  }
}
