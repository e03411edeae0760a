/**
 * Antigravity reply bytes as the Antigravity caller's bytes: Anthropic Messages (message, SSE events,
 * count_tokens, errors) for `/antigravity/v1/messages*`; plain Gemini (unwrapped `response`, as SSE
 * or as a JSON array) for `/antigravity/v1beta/*`.
 */
import { unwrapAntigravityReply } from './gemini-to-antigravity/unwrap-antigravity-reply.js';
import { convertCountTokensReply } from './messages-to-antigravity/convert-count-tokens.js';
import { convertAntigravityReply } from './messages-to-antigravity/convert-antigravity-reply.js';
import { createMessagesStreamTranslator } from './messages-to-antigravity/convert-antigravity-stream.js';
import {
  translateEventStream,
  translateJsonBody,
  type ByteTranslator,
} from '../../bytes/translate-reply-bytes.js';

export type MessagesReplyKind = 'message' | 'count-tokens';

export interface MessagesReplyOptions {
  kind: MessagesReplyKind;
  stream: boolean;
  status: number;
  /** The model the client asked for (echoed in the reply). */
  model: string;
  messageId: string;
}

const unreadableCount = {
  type: 'error',
  error: { type: 'api_error', message: 'The upstream token count could not be read.' },
};

export function translateMessagesReply(options: MessagesReplyOptions): ByteTranslator {
  const replyOptions = { model: options.model, messageId: options.messageId };
  if (options.status < 400 && options.kind === 'count-tokens') {
    return translateJsonBody((json) => convertCountTokensReply(json) ?? unreadableCount);
  }
  if (options.status >= 400 || !options.stream) {
    return translateJsonBody((json) => {
      const converted = convertAntigravityReply(json, replyOptions);
      return converted.ok ? converted.message : { type: 'error', error: converted.error };
    });
  }
  const translator = createMessagesStreamTranslator(replyOptions);
  return translateEventStream({
    event: (payload) => translator.push(payload),
    end: () => translator.end(),
  });
}

export interface GeminiReplyOptions {
  stream: boolean;
  status: number;
  /** The client asked for SSE (`alt=sse`); otherwise a stream is sent as one JSON array. */
  sse: boolean;
}

function arrayStream(): ByteTranslator {
  let opened = false;
  return translateEventStream({
    event: (payload) => {
      const prefix = opened ? ',' : '[';
      opened = true;
      return [`${prefix}${JSON.stringify(unwrapAntigravityReply(payload))}`];
    },
    end: () => [opened ? ']' : '[]'],
  });
}

const unreadableGemini = {
  error: { code: 502, message: 'The upstream reply could not be read.', status: 'UNAVAILABLE' },
};

export function translateGeminiReply(options: GeminiReplyOptions): ByteTranslator {
  if (!options.stream || options.status >= 400) {
    return translateJsonBody((json) =>
      json === undefined ? unreadableGemini : unwrapAntigravityReply(json),
    );
  }
  if (!options.sse) return arrayStream();
  return translateEventStream({
    event: (payload) => [`data: ${JSON.stringify(unwrapAntigravityReply(payload))}\n\n`],
    end: () => [],
  });
}
