import { z } from 'zod';
import { describeParseFailure } from '../../../spec/describe-parse-failure.js';
import { convertMessagesContent, joinSystemText } from './convert-messages-content.js';
import { countTokensRequestSchema } from './messages-request-schema.js';
import type { GeminiContent, MessagesTranslationRefusal } from './antigravity-types.js';

export interface AntigravityCountTokensRequest {
  request: { model: string; contents: GeminiContent[] };
}

/**
 * `/antigravity/v1/messages/count_tokens` body -> Antigravity `:countTokens` body. The upstream
 * method takes only `contents`, so the system prompt is counted as a leading user turn; tool
 * definitions are not counted (see docs/translation.md).
 */
export function convertCountTokensRequest(
  body: unknown,
): { ok: true; body: AntigravityCountTokensRequest; model: string } | MessagesTranslationRefusal {
  const parsed = countTokensRequestSchema.safeParse(body);
  if (!parsed.success) return describeParseFailure(parsed.error);
  const request = parsed.data;
  const converted = convertMessagesContent(request.messages);
  if (!converted.ok) return converted;
  const { contents, systemTexts } = converted.conversation;
  const system = [
    ...(request.system == null ? [] : joinSystemText(request.system)),
    ...systemTexts,
  ];
  const systemTurn: GeminiContent[] =
    system.length === 0 ? [] : [{ role: 'user', parts: system.map((text) => ({ text })) }];
  return {
    ok: true,
    body: { request: { model: `models/${request.model}`, contents: [...systemTurn, ...contents] } },
    model: request.model,
  };
}

const countTokensReplySchema = z.looseObject({ totalTokens: z.number().int().nonnegative() });

/** Antigravity `{totalTokens}` -> Anthropic `{input_tokens}`; undefined when the reply is unreadable. */
export function convertCountTokensReply(body: unknown): { input_tokens: number } | undefined {
  const parsed = countTokensReplySchema.safeParse(body);
  return parsed.success ? { input_tokens: parsed.data.totalTokens } : undefined;
}
