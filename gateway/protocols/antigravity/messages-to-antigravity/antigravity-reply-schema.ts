import { z } from 'zod';

/** Lenient schema for a Gemini response (the `response` inside an Antigravity reply or chunk). */
export const geminiUsageSchema = z.looseObject({
  promptTokenCount: z.number().nullish(),
  candidatesTokenCount: z.number().nullish(),
  thoughtsTokenCount: z.number().nullish(),
  cachedContentTokenCount: z.number().nullish(),
  toolUsePromptTokenCount: z.number().nullish(),
  totalTokenCount: z.number().nullish(),
});
export type GeminiUsage = z.infer<typeof geminiUsageSchema>;

export const geminiReplyPartSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z
    .looseObject({ name: z.string(), args: z.unknown().optional(), id: z.string().nullish() })
    .nullish(),
});
export type GeminiReplyPart = z.infer<typeof geminiReplyPartSchema>;

export const geminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ parts: z.array(geminiReplyPartSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
      }),
    )
    .nullish(),
  usageMetadata: geminiUsageSchema.nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish() }).nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
});

export const googleErrorSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  status: z.string().nullish(),
});

/** `{response:{…}}` or `{error:{…}}` (Google style). */
export const antigravityReplySchema = z.looseObject({
  response: geminiResponseSchema.nullish(),
  error: googleErrorSchema.nullish(),
});
