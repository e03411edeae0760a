/**
 * The Responses reply of a translated Chat Completions request, as Chat Completions bytes: the
 * Responses event stream as `chat.completion.chunk`s, a Responses JSON as a `chat.completion`
 * (a failed response as an OpenAI error body). Error statuses already have the OpenAI shape.
 */
import { createChatStreamTranslator } from '../../translate/chat-to-responses/convert-responses-stream.js';
import { convertResponsesReply } from '../../translate/chat-to-responses/convert-responses-reply.js';
import {
  passBytes,
  translateEventStream,
  translateJsonBody,
  type ByteTranslator,
} from '../../translate/translate-reply-bytes.js';

export interface ChatReplyOptions {
  stream: boolean;
  status: number;
  /** The client's `stream_options.include_usage`. */
  includeUsage: boolean;
}

export function translateChatReply(options: ChatReplyOptions): ByteTranslator {
  if (options.status >= 400) return passBytes();
  if (!options.stream) {
    return translateJsonBody((json) => {
      const converted = convertResponsesReply(json);
      return converted.ok ? converted.completion : { error: converted.error };
    });
  }
  const translator = createChatStreamTranslator({ includeUsage: options.includeUsage });
  return translateEventStream({
    event: (payload) => translator.push(payload),
    end: () => translator.end(),
  });
}
