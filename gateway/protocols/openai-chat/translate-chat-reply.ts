/**
 * The Responses reply of a translated Chat Completions request, as Chat Completions bytes: the
 * Responses event stream as `chat.completion.chunk`s, a Responses JSON as a `chat.completion`
 * (a failed response as an OpenAI error body). Error statuses already have the OpenAI shape.
 */
import { createChatStreamTranslator } from './chat-to-responses/convert-responses-stream.js';
import { convertResponsesReply } from './chat-to-responses/convert-responses-reply.js';
import {
  passBytes,
  translateEventStream,
  translateJsonBody,
  type ByteTranslator,
} from '../../bytes/translate-reply-bytes.js';

export interface ChatReplyOptions {
  stream: boolean;
  status: number;
  /** The client's `stream_options.include_usage`. */
  includeUsage: boolean;
}

/** A Responses reply with `status: failed` or `cancelled` is an upstream failure (Bad Gateway). */
const FAILED_REPLY_STATUS = 502;

export function translateChatReply(options: ChatReplyOptions): ByteTranslator {
  if (options.status >= 400) return passBytes();
  if (!options.stream) {
    let failed = false;
    return translateJsonBody(
      (json) => {
        const converted = convertResponsesReply(json);
        failed = !converted.ok;
        return converted.ok ? converted.completion : { error: converted.error };
      },
      // The upstream answered 200 for a response that failed: the client gets an error status.
      () => (failed ? FAILED_REPLY_STATUS : null),
    );
  }
  const translator = createChatStreamTranslator({ includeUsage: options.includeUsage });
  return translateEventStream({
    event: (payload) => translator.push(payload),
    end: () => translator.end(),
  });
}
