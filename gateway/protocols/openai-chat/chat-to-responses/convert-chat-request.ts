import { describeParseFailure } from '../../../spec/describe-parse-failure.js';
import { definedEntry, pickDefined } from '../../../spec/pick-defined.js';
import { chatRequestSchema, type ChatRequest } from './chat-request-schema.js';
import { convertChatMessages } from './convert-chat-messages.js';
import { convertChatToolChoice, convertChatTools } from './convert-chat-tools.js';
import { findUnsupportedChatField } from './find-unsupported-chat-field.js';
import { readChatOutputCap } from './read-chat-output-cap.js';
import type {
  ChatTranslationRefusal,
  ResponsesRequest,
  ResponsesTextFormat,
} from './responses-request-types.js';

export type ChatRequestConversion =
  | { ok: true; request: ResponsesRequest; includeUsage: boolean; model: string }
  | ChatTranslationRefusal;

/** Fields with the same name and meaning in both APIs. */
const sameNameFields = [
  'temperature',
  'top_p',
  'top_logprobs',
  'parallel_tool_calls',
  'metadata',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
] as const;

type FormatResult = { ok: true; format: ResponsesTextFormat | undefined } | ChatTranslationRefusal;

function convertResponseFormat(request: ChatRequest): FormatResult {
  const format = request.response_format;
  if (format == null) return { ok: true, format: undefined };
  switch (format.type) {
    case 'text':
    case 'json_object':
      return { ok: true, format: { type: format.type } };
    case 'json_schema': {
      const schema = format.json_schema;
      if (!schema)
        return {
          ok: false,
          param: 'response_format.json_schema',
          message: 'json_schema is required.',
        };
      return {
        ok: true,
        format: {
          type: 'json_schema',
          name: schema.name,
          schema: schema.schema ?? {},
          ...definedEntry('strict', schema.strict),
          ...definedEntry('description', schema.description),
        },
      };
    }
    default:
      return {
        ok: false,
        param: 'response_format.type',
        message: `Unknown response_format type '${format.type}'.`,
      };
  }
}

/**
 * Chat Completions request body (parsed JSON) -> Responses request (wire-formats.md 3.4).
 * Always stateless: `store:false` and encrypted reasoning included.
 */
export function convertChatRequest(body: unknown): ChatRequestConversion {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) return describeParseFailure(parsed.error);
  const chat = parsed.data;
  const unsupported = findUnsupportedChatField(chat);
  if (unsupported) return unsupported;
  const input = convertChatMessages(chat.messages);
  if (!input.ok) return input;
  const tools = convertChatTools(chat);
  if (!tools.ok) return tools;
  const toolChoice = convertChatToolChoice(chat);
  if (!toolChoice.ok) return toolChoice;
  const format = convertResponseFormat(chat);
  if (!format.ok) return format;

  const text = {
    ...definedEntry('format', format.format),
    ...definedEntry('verbosity', chat.verbosity),
  };
  const include = ['reasoning.encrypted_content'];
  if (chat.logprobs === true) include.push('message.output_text.logprobs');
  const includeObfuscation = chat.stream_options?.include_obfuscation;

  const request: ResponsesRequest = {
    model: chat.model,
    input: input.items,
    store: false,
    include,
    ...pickDefined(chat, sameNameFields),
    ...definedEntry('stream', chat.stream),
    ...definedEntry(
      'stream_options',
      includeObfuscation == null ? undefined : { include_obfuscation: includeObfuscation },
    ),
    ...definedEntry('max_output_tokens', readChatOutputCap(chat) ?? undefined),
    ...definedEntry(
      'reasoning',
      chat.reasoning_effort == null ? undefined : { effort: chat.reasoning_effort },
    ),
    ...definedEntry('text', Object.keys(text).length === 0 ? undefined : text),
    ...definedEntry('tools', tools.tools.length === 0 ? undefined : tools.tools),
    ...definedEntry('tool_choice', toolChoice.toolChoice),
  };
  const includeUsage = chat.stream_options?.include_usage === true;
  return { ok: true, request, includeUsage, model: chat.model };
}
