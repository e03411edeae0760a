import { convertResponsesUsage, type ChatUsage } from './convert-responses-usage.js';
import { mapResponsesFinishReason, type ChatFinishReason } from './map-responses-finish-reason.js';
import { responsesReplySchema, type ResponsesOutputItem } from './responses-reply-schema.js';

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      message: {
        role: 'assistant';
        content: string | null;
        refusal: string | null;
        annotations: unknown[];
        tool_calls?: ChatToolCall[];
      };
      logprobs: { content: unknown[]; refusal: null } | null;
      finish_reason: ChatFinishReason;
    },
  ];
  usage?: ChatUsage;
  service_tier?: string;
}

/** An OpenAI-shaped error for a reply that failed upstream (rendered with a 5xx by the caller). */
export interface ChatReplyError {
  message: string;
  type: 'server_error';
  param: null;
  code: string | null;
}

export type ResponsesReplyConversion =
  { ok: true; completion: ChatCompletion } | { ok: false; error: ChatReplyError };

/** `resp_abc` -> `chatcmpl-abc`, so the id stays traceable to the upstream response. */
export function toChatCompletionId(responseId: string | null | undefined): string {
  return `chatcmpl-${(responseId ?? '').replace(/^resp_/, '')}`;
}

function collect(output: readonly ResponsesOutputItem[], partType: 'output_text' | 'refusal') {
  const parts = output
    .filter((item) => item.type === 'message')
    .flatMap((item) => item.content ?? [])
    .filter((part) => part.type === partType);
  const texts = parts.map((part) => (partType === 'output_text' ? part.text : part.refusal) ?? '');
  return {
    joined: parts.length === 0 ? null : texts.join(''),
    logprobs: parts.flatMap((p) => p.logprobs ?? []),
  };
}

function toToolCall(item: ResponsesOutputItem): ChatToolCall {
  return {
    id: item.call_id ?? item.id ?? '',
    type: 'function',
    function: { name: item.name ?? '', arguments: item.arguments ?? '' },
  };
}

/** A non-streamed Responses reply (parsed JSON) -> `chat.completion` (wire-formats.md 3.4). */
export function convertResponsesReply(body: unknown): ResponsesReplyConversion {
  const parsed = responsesReplySchema.safeParse(body);
  if (!parsed.success)
    return {
      ok: false,
      error: {
        message: 'The upstream reply could not be read.',
        type: 'server_error',
        param: null,
        code: null,
      },
    };
  const reply = parsed.data;
  const output = reply.output ?? [];
  const toolCalls = output.filter((item) => item.type === 'function_call').map(toToolCall);
  const finishReason = mapResponsesFinishReason({
    status: reply.status ?? 'completed',
    incompleteReason: reply.incomplete_details?.reason,
    sawFunctionCall: toolCalls.length > 0,
  });
  if (finishReason === undefined) {
    const message = reply.error?.message ?? `The upstream response ${reply.status ?? 'failed'}.`;
    return {
      ok: false,
      error: { message, type: 'server_error', param: null, code: reply.error?.code ?? null },
    };
  }
  const text = collect(output, 'output_text');
  const refusal = collect(output, 'refusal');
  const completion: ChatCompletion = {
    id: toChatCompletionId(reply.id),
    object: 'chat.completion',
    created: reply.created_at ?? 0,
    model: reply.model ?? '',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text.joined,
          refusal: refusal.joined,
          annotations: [],
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        logprobs: text.logprobs.length === 0 ? null : { content: text.logprobs, refusal: null },
        finish_reason: finishReason,
      },
    ],
    ...(reply.usage ? { usage: convertResponsesUsage(reply.usage) } : {}),
    ...(reply.service_tier == null ? {} : { service_tier: reply.service_tier }),
  };
  return { ok: true, completion };
}
