import { z } from 'zod';

/**
 * Lenient wire schema for an Anthropic Messages request: one loose block shape whose fields
 * depend on `type` (checked by the converter), so unknown block types reach the converter.
 */
export const messagesBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  thinking: z.string().nullish(),
  signature: z.string().nullish(),
  source: z
    .looseObject({
      type: z.string(),
      media_type: z.string().nullish(),
      data: z.string().nullish(),
      url: z.string().nullish(),
    })
    .nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  input: z.unknown().optional(),
  tool_use_id: z.string().nullish(),
  is_error: z.boolean().nullish(),
  get content() {
    return z.union([z.string(), z.array(messagesBlockSchema)]).nullish();
  },
});
export type MessagesBlock = z.infer<typeof messagesBlockSchema>;

const contentSchema = z.union([z.string(), z.array(messagesBlockSchema)]);
export type MessagesContent = z.infer<typeof contentSchema>;

export const messagesMessageSchema = z.looseObject({ role: z.string(), content: contentSchema });
export type MessagesMessage = z.infer<typeof messagesMessageSchema>;

export const messagesToolSchema = z.looseObject({
  type: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  input_schema: z.record(z.string(), z.unknown()).nullish(),
});
export type MessagesTool = z.infer<typeof messagesToolSchema>;

export const messagesToolChoiceSchema = z.looseObject({
  type: z.string(),
  name: z.string().nullish(),
});
export type MessagesToolChoice = z.infer<typeof messagesToolChoiceSchema>;

export const messagesThinkingSchema = z.looseObject({
  type: z.string(),
  budget_tokens: z.number().int().nullish(),
});

export const messagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(messagesMessageSchema),
  system: contentSchema.nullish(),
  stream: z.boolean().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  top_k: z.number().int().nullish(),
  stop_sequences: z.array(z.string()).nullish(),
  tools: z.array(messagesToolSchema).nullish(),
  tool_choice: messagesToolChoiceSchema.nullish(),
  thinking: messagesThinkingSchema.nullish(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).nullish(),
});
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

/** count_tokens takes the same fields minus `max_tokens` and `stream`. */
export const countTokensRequestSchema = messagesRequestSchema.omit({
  max_tokens: true,
  stream: true,
});
