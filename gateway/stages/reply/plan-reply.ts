/**
 * How an upstream success is passed on, decided once from the route and the reply's headers: as a
 * stream or not, its content type, the route's translator, the usage reader of the upstream's
 * wire format, and how a failure mid-stream is told to the caller.
 */
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import type {
  ForwardContext,
  ReplyTranslator,
  RequestAdapter,
  UsageReader,
  UsageReaders,
} from '../../spec/protocol-adapter.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import type { ReplyCollector } from '../../capture/reply-collector.js';
import { mapTransportError } from '../forward/map-upstream-failure.js';

export interface ReplyPlan {
  stream: boolean;
  contentType: string;
  translator: ReplyTranslator | null;
  reader: UsageReader;
  streamError: (error: unknown) => string | null;
  onUpstreamError: (error: unknown) => void;
  /** Keeps the bytes sent to the caller, when the key's calls are captured (send-reply.ts). */
  collect?: ReplyCollector | undefined;
}

export function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

export function planReply(
  usageReaders: UsageReaders,
  call: { request: FastifyRequest; admitted: { context: ForwardContext } },
  served: {
    upstream: ResolvedUpstream;
    adapter: RequestAdapter;
    response: Dispatcher.ResponseData;
  },
): ReplyPlan {
  const { request } = call;
  const { context } = call.admitted;
  const { adapter, response, upstream } = served;
  const stream = adapter.isStream(context);
  return {
    stream,
    contentType: headerText(response.headers['content-type']) ?? '',
    translator: adapter.translateReply?.(context, { stream, status: response.statusCode }) ?? null,
    reader: usageReaders[adapter.upstreamFormat(context)],
    streamError: (error) => adapter.streamError(context, mapTransportError(error)),
    onUpstreamError: (error) => {
      request.log.warn({ err: error, upstream: upstream.name }, 'upstream failed mid-stream');
    },
  };
}
