import { mapAntigravityUsage, type AnthropicUsage } from './map-antigravity-usage.js';
import { mapGoogleStatusToAnthropicType } from './map-google-error-type.js';
import {
  mapAntigravityStopReason,
  type AnthropicStopReason,
} from './map-antigravity-stop-reason.js';
import { antigravityReplySchema, type GeminiReplyPart } from './antigravity-reply-schema.js';

export type AnthropicContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: AnthropicStopReason;
  stop_sequence: null;
  usage: AnthropicUsage;
}

export interface ReplyOptions {
  /** The model name the client asked for (echoed back). */
  model: string;
  /** `msg_…` id for the message; generated tool ids derive from it. */
  messageId: string;
}

export type AntigravityReplyConversion =
  | { ok: true; message: AnthropicMessage }
  | { ok: false; status: number; error: { type: string; message: string } };

/** `toolu_<message id suffix>_<n>` for a functionCall that came without an id. */
export function generateToolUseId(messageId: string, index: number): string {
  return `toolu_${messageId.replace(/^msg_/, '')}_${index}`;
}

/** Appends one Gemini part to the blocks, merging consecutive thought and text parts. */
function appendPart(
  blocks: AnthropicContentBlock[],
  part: GeminiReplyPart,
  options: ReplyOptions,
): void {
  const last = blocks.at(-1);
  if (part.functionCall) {
    const id = part.functionCall.id ?? generateToolUseId(options.messageId, blocks.length);
    blocks.push({
      type: 'tool_use',
      id,
      name: part.functionCall.name,
      input: part.functionCall.args ?? {},
    });
  } else if (part.thought === true) {
    if (last?.type === 'thinking') {
      last.thinking += part.text ?? '';
      last.signature = part.thoughtSignature ?? last.signature;
    } else
      blocks.push({
        type: 'thinking',
        thinking: part.text ?? '',
        signature: part.thoughtSignature ?? '',
      });
  } else if (part.text) {
    if (last?.type === 'text') last.text += part.text;
    else blocks.push({ type: 'text', text: part.text });
  }
}

/** A non-streamed Antigravity reply `{response:{…}}` (parsed JSON) -> Anthropic `message`. */
export function convertAntigravityReply(
  body: unknown,
  options: ReplyOptions,
): AntigravityReplyConversion {
  const parsed = antigravityReplySchema.safeParse(body);
  if (!parsed.success || (!parsed.data.response && !parsed.data.error))
    return {
      ok: false,
      status: 502,
      error: { type: 'api_error', message: 'The upstream reply could not be read.' },
    };
  const { response, error } = parsed.data;
  if (error || !response) {
    const type = mapGoogleStatusToAnthropicType(error?.status);
    return {
      ok: false,
      status: error?.code ?? 502,
      error: { type, message: error?.message ?? 'Upstream error.' },
    };
  }
  const candidate = response.candidates?.[0];
  const blocks: AnthropicContentBlock[] = [];
  for (const part of candidate?.content?.parts ?? []) appendPart(blocks, part, options);
  const stopReason = mapAntigravityStopReason({
    finishReason: candidate?.finishReason,
    sawFunctionCall: blocks.some((block) => block.type === 'tool_use'),
    promptBlocked: !candidate && response.promptFeedback?.blockReason != null,
  });
  return {
    ok: true,
    message: {
      id: options.messageId,
      type: 'message',
      role: 'assistant',
      model: options.model,
      content: blocks,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: mapAntigravityUsage(response.usageMetadata),
    },
  };
}
