/**
 * `POST /v1/chat/completions` on OpenAI keys. By default the request is translated to a Responses
 * request for the upstream's `/v1/responses` and the reply translated back (billing reads the
 * Responses usage); an Upstream with `chatCompletions: Native` gets the request passed through.
 * The choice is per upstream (`forUpstream`). Credential: Bearer.
 */
import {
  asksForStream,
  bodyWithModel,
  jsonStringField,
  withQuery,
  type ForwardContext,
  type RequestAdapter,
} from '../../spec/protocol-adapter.js';
import {
  createChatUsageChunkStripper,
  requestChatStreamUsage,
} from './request-chat-stream-usage.js';
import { passBytes } from '../../bytes/translate-reply-bytes.js';
import {
  convertChatRequest,
  type ChatRequestConversion,
} from './chat-to-responses/convert-chat-request.js';
import { GatewayError } from '../../errors/gateway-error.js';
import {
  isOpenAIErrorBody,
  renderOpenAIChatStreamError,
} from '../openai-responses/render-openai-error.js';
import { outputAllowance } from '../../billing/estimate-request-cost.js';
import {
  readChatAnswerCount,
  readChatOutputCapOnAnyUpstream,
} from './chat-to-responses/read-chat-output-cap.js';
import { translateChatReply } from './translate-chat-reply.js';

/** The conversion of each request, computed once (admission reads the model, forward the body). */
const conversions = new WeakMap<ForwardContext, ChatRequestConversion>();

function convertOnce(context: ForwardContext): ChatRequestConversion {
  let conversion = conversions.get(context);
  if (conversion === undefined) {
    conversion = convertChatRequest(context.json);
    conversions.set(context, conversion);
  }
  return conversion;
}

function asObject(json: unknown): Record<string, unknown> {
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
}

const isStream = asksForStream;

const shared = {
  readModel: (context: ForwardContext) => jsonStringField(context.json, 'model'),
  // Admission runs before the upstream (translated or native) is chosen: reserve for either, and
  // for every answer a native upstream may be asked for (`n`).
  readOutputCap: (context: ForwardContext) =>
    outputAllowance({
      cap: readChatOutputCapOnAnyUpstream(asObject(context.json)),
      answers: readChatAnswerCount(asObject(context.json)),
      platform: 'OpenAI',
    }),
  isStream,
  applyCredential: (headers: Record<string, string | string[]>, credential: string) => {
    headers.authorization = `Bearer ${credential}`;
  },
  isErrorBody: isOpenAIErrorBody,
  streamError: (context: ForwardContext, error: Parameters<RequestAdapter['streamError']>[1]) =>
    isStream(context) ? renderOpenAIChatStreamError(error) : null,
} satisfies Partial<RequestAdapter>;

/**
 * `chatCompletions: Native`: the body goes to the upstream's `/v1/chat/completions` untouched,
 * except that a stream always asks for usage (metering needs it); the usage chunk the caller did
 * not ask for is then removed from its stream.
 */
export const openAIChatNativeAdapter: RequestAdapter = {
  ...shared,
  upstreamFormat: () => 'openai-chat',
  buildUpstream: (context, upstreamModel) => {
    const body = bodyWithModel(context, upstreamModel);
    const json =
      upstreamModel === null ? context.json : { ...asObject(context.json), model: upstreamModel };
    return {
      path: withQuery(context.path, context.query),
      body: requestChatStreamUsage({ body, json }).body,
    };
  },
  translateReply: (context, reply) =>
    reply.status < 400 && reply.stream && requestChatStreamUsage(context).stripUsageChunk
      ? createChatUsageChunkStripper()
      : passBytes(),
};

/** `chatCompletions: Translate` (the default): Chat -> Responses -> Chat. */
export const openAIChatTranslatedAdapter: RequestAdapter = {
  ...shared,
  upstreamFormat: () => 'openai-responses',
  buildUpstream: (context, upstreamModel) => {
    const conversion = convertOnce(context);
    if (!conversion.ok) {
      throw new GatewayError('TG_BAD_REQUEST', {
        message: conversion.message,
        param: conversion.param,
      });
    }
    const request =
      upstreamModel === null ? conversion.request : { ...conversion.request, model: upstreamModel };
    return {
      path: withQuery('/v1/responses', context.query),
      body: Buffer.from(JSON.stringify(request), 'utf8'),
    };
  },
  translateReply: (context, reply) => {
    const conversion = convertOnce(context);
    return translateChatReply({
      ...reply,
      includeUsage: conversion.ok && conversion.includeUsage,
    });
  },
};

export const openAIChatAdapter: RequestAdapter = {
  ...openAIChatTranslatedAdapter,
  forUpstream: (upstream) =>
    upstream.chatCompletions === 'Native' ? openAIChatNativeAdapter : openAIChatTranslatedAdapter,
};
