import { z } from 'zod';
import {
  responsesErrorSchema,
  responsesOutputItemSchema,
  responsesReplySchema,
} from './responses-reply-schema.js';

/** Lenient schema for one Responses SSE event payload: only the fields the translator reads. */
export const responsesStreamEventSchema = z.looseObject({
  type: z.string(),
  response: responsesReplySchema.nullish(),
  item: responsesOutputItemSchema.nullish(),
  item_id: z.string().nullish(),
  output_index: z.number().nullish(),
  delta: z.string().nullish(),
  logprobs: z.array(z.unknown()).nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
  error: responsesErrorSchema.nullish(),
});
export type ResponsesStreamEvent = z.infer<typeof responsesStreamEventSchema>;
