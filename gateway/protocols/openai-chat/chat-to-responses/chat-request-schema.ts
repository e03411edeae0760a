import { z } from 'zod';

/**
 * Lenient wire schema for a Chat Completions request: only the fields the translator reads are
 * described; everything else passes validation untouched (and is then ignored or refused).
 */
/** One content part; which fields are present depends on `type` (checked by the converter). */
export const chatContentPartSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  refusal: z.string().nullish(),
  image_url: z.looseObject({ url: z.string(), detail: z.string().nullish() }).nullish(),
  file: z
    .looseObject({
      file_id: z.string().nullish(),
      file_data: z.string().nullish(),
      filename: z.string().nullish(),
    })
    .nullish(),
});
export type ChatContentPart = z.infer<typeof chatContentPartSchema>;

const functionCallSchema = z.looseObject({ name: z.string(), arguments: z.string().nullish() });
const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.string().nullish(),
  function: functionCallSchema,
});

export const chatMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(chatContentPartSchema)]).nullish(),
  name: z.string().nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(toolCallSchema).nullish(),
  function_call: functionCallSchema.nullish(),
  tool_call_id: z.string().nullish(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

const functionDefinitionSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});
export type ChatFunctionDefinition = z.infer<typeof functionDefinitionSchema>;

export const chatToolSchema = z.looseObject({
  type: z.string(),
  function: functionDefinitionSchema.nullish(),
  custom: z
    .looseObject({
      name: z.string(),
      description: z.string().nullish(),
      format: z.unknown().optional(),
    })
    .nullish(),
});
export type ChatTool = z.infer<typeof chatToolSchema>;

export const chatToolChoiceSchema = z.union([
  z.string(),
  z.looseObject({
    type: z.string(),
    function: z.looseObject({ name: z.string() }).nullish(),
    custom: z.looseObject({ name: z.string() }).nullish(),
  }),
]);
export type ChatToolChoice = z.infer<typeof chatToolChoiceSchema>;

const nullableNumber = z.number().nullish();
const nullableString = z.string().nullish();

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z
    .looseObject({
      include_usage: z.boolean().nullish(),
      include_obfuscation: z.boolean().nullish(),
    })
    .nullish(),
  max_tokens: z.number().int().nullish(),
  max_completion_tokens: z.number().int().nullish(),
  temperature: nullableNumber,
  top_p: nullableNumber,
  n: z.number().int().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  seed: nullableNumber,
  presence_penalty: nullableNumber,
  frequency_penalty: nullableNumber,
  logit_bias: z.record(z.string(), z.number()).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().nullish(),
  response_format: z
    .looseObject({
      type: z.string(),
      json_schema: z
        .looseObject({
          name: z.string(),
          description: nullableString,
          schema: z.record(z.string(), z.unknown()).nullish(),
          strict: z.boolean().nullish(),
        })
        .nullish(),
    })
    .nullish(),
  reasoning_effort: nullableString,
  verbosity: nullableString,
  tools: z.array(chatToolSchema).nullish(),
  tool_choice: chatToolChoiceSchema.nullish(),
  functions: z.array(functionDefinitionSchema).nullish(),
  function_call: z.union([z.string(), z.looseObject({ name: z.string() })]).nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: nullableString,
  safety_identifier: nullableString,
  prompt_cache_key: nullableString,
  prompt_cache_retention: nullableString,
  service_tier: nullableString,
  store: z.boolean().nullish(),
  audio: z.unknown().optional(),
  modalities: z.array(z.string()).nullish(),
  prediction: z.unknown().optional(),
  web_search_options: z.record(z.string(), z.unknown()).nullish(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
