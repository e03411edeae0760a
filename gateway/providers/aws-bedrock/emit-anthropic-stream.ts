/**
 * Bedrock's InvokeModelWithResponseStream reply re-emitted as the Anthropic SSE stream the
 * first-party API sends (pure, incremental). Each `chunk` event carries `{"bytes": <base64>}`, the
 * bytes being one Anthropic stream event's JSON; it goes out as `event: <type>\ndata: <json>\n\n`
 * with the JSON as Bedrock sent it. The last event (`message_stop`) carries
 * `amazon-bedrock-invocationMetrics`, which is taken off it. A `message_delta` without `usage`
 * (the Anthropic SDK requires it there) is held until the next event: when that one has the
 * metrics, the delta goes out with their counts as its usage, so the caller reads and the gateway
 * meters them; otherwise it goes out as sent. An exception message (`:message-type: exception`, or
 * `error`) becomes the Anthropic stream `error` event, and nothing after it is emitted.
 */
import {
  EventStreamDecoder,
  EventStreamError,
  type EventStreamMessage,
} from './decode-event-stream.js';
import { classifyBedrockError, renderAnthropicErrorJson } from './map-bedrock-error.js';

interface InvocationMetrics {
  inputTokenCount?: number;
  outputTokenCount?: number;
  cacheReadInputTokenCount?: number;
  cacheWriteInputTokenCount?: number;
}

interface StreamEvent {
  type?: unknown;
  usage?: { output_tokens?: unknown };
  delta?: { stop_reason?: unknown; stop_sequence?: unknown };
  'amazon-bedrock-invocationMetrics'?: InvocationMetrics;
}

const frame = (type: string, json: string) => `event: ${type}\ndata: ${json}\n\n`;

function usageFromMetrics(metrics: InvocationMetrics): Record<string, number> {
  const usage: Record<string, number> = {
    input_tokens: metrics.inputTokenCount ?? 0,
    output_tokens: metrics.outputTokenCount ?? 0,
  };
  if (metrics.cacheReadInputTokenCount !== undefined) {
    usage.cache_read_input_tokens = metrics.cacheReadInputTokenCount;
  }
  if (metrics.cacheWriteInputTokenCount !== undefined) {
    usage.cache_creation_input_tokens = metrics.cacheWriteInputTokenCount;
  }
  return usage;
}

export class AnthropicStreamEmitter {
  readonly contentType = 'text/event-stream';
  readonly #decoder = new EventStreamDecoder();
  /** A `message_delta` without usage, held until the next event tells whether metrics follow. */
  #heldDelta: { event: StreamEvent; json: string } | null = null;
  #failed = false;

  push(chunk: Buffer): Buffer {
    if (this.#failed) return Buffer.alloc(0);
    const out: string[] = [];
    for (const message of this.#decoder.push(chunk)) {
      out.push(this.#emit(message));
      if (this.#stopped()) break;
    }
    return Buffer.from(out.join(''), 'utf8');
  }

  end(): Buffer {
    if (!this.#failed) this.#decoder.end();
    return Buffer.from(this.#releaseDelta(undefined), 'utf8');
  }

  /** The held `message_delta`, with the metrics' usage when there are metrics. */
  #releaseDelta(metrics: InvocationMetrics | undefined): string {
    const held = this.#heldDelta;
    if (held === null) return '';
    this.#heldDelta = null;
    if (metrics === undefined) return frame('message_delta', held.json);
    const delta = { ...held.event, usage: usageFromMetrics(metrics) };
    return frame('message_delta', JSON.stringify(delta));
  }

  #stopped(): boolean {
    return this.#failed;
  }

  #emit(message: EventStreamMessage): string {
    const kind = message.headers[':message-type'];
    if (kind === 'exception' || kind === 'error') {
      this.#failed = true;
      const mapped = classifyBedrockError({
        status: 500,
        exception: message.headers[':exception-type'] ?? message.headers[':error-code'] ?? null,
        bytes:
          kind === 'error'
            ? Buffer.from(JSON.stringify({ message: message.headers[':error-message'] ?? '' }))
            : message.payload,
      });
      return this.#releaseDelta(undefined) + frame('error', renderAnthropicErrorJson(mapped));
    }
    if (kind !== 'event' || message.headers[':event-type'] !== 'chunk') return '';
    return this.#emitChunk(message.payload);
  }

  #emitChunk(payload: Buffer): string {
    let json: string;
    let event: StreamEvent;
    try {
      const { bytes } = JSON.parse(payload.toString('utf8')) as { bytes?: unknown };
      if (typeof bytes !== 'string') throw new EventStreamError('a chunk without bytes');
      json = Buffer.from(bytes, 'base64').toString('utf8');
      event = JSON.parse(json) as StreamEvent;
    } catch (error) {
      if (error instanceof EventStreamError) throw error;
      throw new EventStreamError('a chunk that is not base64 JSON', { cause: error });
    }
    if (typeof event.type !== 'string') throw new EventStreamError('a chunk event without type');
    const metrics = event['amazon-bedrock-invocationMetrics'];
    const released = this.#releaseDelta(metrics);
    if (event.type === 'message_delta' && event.usage === undefined) {
      this.#heldDelta = { event, json };
      return released;
    }
    if (metrics === undefined) return released + frame(event.type, json);
    const rest: StreamEvent = { ...event };
    delete rest['amazon-bedrock-invocationMetrics'];
    return released + frame(event.type, JSON.stringify(rest));
  }
}
