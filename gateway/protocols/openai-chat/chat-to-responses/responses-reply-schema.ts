import { z } from 'zod';

/** Lenient wire schema for the parts of a Responses reply (or a stream event's `response`) we read. */
export const responsesUsageSchema = z.looseObject({
  input_tokens: z.number(),
  input_tokens_details: z
    .looseObject({ cached_tokens: z.number().nullish(), cache_write_tokens: z.number().nullish() })
    .nullish(),
  output_tokens: z.number(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
  total_tokens: z.number().nullish(),
});
export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;

const outputContentSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  refusal: z.string().nullish(),
  logprobs: z.array(z.unknown()).nullish(),
});

export const responsesOutputItemSchema = z.looseObject({
  type: z.string(),
  id: z.string().nullish(),
  content: z.array(outputContentSchema).nullish(),
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.string().nullish(),
});
export type ResponsesOutputItem = z.infer<typeof responsesOutputItemSchema>;

export const responsesErrorSchema = z.looseObject({
  code: z.string().nullish(),
  message: z.string().nullish(),
});

export const responsesReplySchema = z.looseObject({
  id: z.string().nullish(),
  created_at: z.number().nullish(),
  model: z.string().nullish(),
  status: z.string().nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  error: responsesErrorSchema.nullish(),
  output: z.array(responsesOutputItemSchema).nullish(),
  usage: responsesUsageSchema.nullish(),
  service_tier: z.string().nullish(),
});
