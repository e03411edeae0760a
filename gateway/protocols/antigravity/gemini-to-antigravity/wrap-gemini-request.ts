import { z } from 'zod';

export interface GeminiEnvelope {
  project: string;
  requestId: string;
  userAgent: 'antigravity';
  requestType: 'agent' | 'web_search';
  model: string;
  request: Record<string, unknown>;
}

const geminiRequestSchema = z.looseObject({
  contents: z.array(z.unknown()),
  tools: z.array(z.looseObject({ googleSearch: z.unknown().optional() })).nullish(),
});

export interface WrapOptions {
  /** `{model}` from the path (`gemini-2.5-flash` or `models/gemini-2.5-flash`). */
  model: string;
  projectId: string;
  requestId: string;
}

/** `models/x` and `x` both name model `x`. */
export function modelFromPath(model: string): string {
  return model.replace(/^models\//, '');
}

/**
 * A Gemini `generateContent` body (parsed JSON) -> the Antigravity envelope; the body itself is
 * passed through untouched as `request`. `requestType` is `web_search` when a googleSearch tool is
 * present (wire-formats.md 5.2).
 */
export function wrapGeminiRequest(
  body: unknown,
  options: WrapOptions,
): { ok: true; envelope: GeminiEnvelope } | { ok: false; message: string } {
  const parsed = geminiRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, message: 'The request needs a contents array.' };
  const searches = (parsed.data.tools ?? []).some((tool) => tool.googleSearch !== undefined);
  return {
    ok: true,
    envelope: {
      project: options.projectId,
      requestId: options.requestId,
      userAgent: 'antigravity',
      requestType: searches ? 'web_search' : 'agent',
      model: modelFromPath(options.model),
      request: parsed.data,
    },
  };
}

/** A Gemini `countTokens` body (`{contents}` or `{generateContentRequest}`) -> Antigravity `:countTokens`. */
export function wrapGeminiCountTokens(
  body: unknown,
  model: string,
): { ok: true; body: { request: Record<string, unknown> } } | { ok: false; message: string } {
  const parsed = z
    .looseObject({
      contents: z.array(z.unknown()).nullish(),
      generateContentRequest: z.looseObject({ contents: z.array(z.unknown()) }).nullish(),
    })
    .safeParse(body);
  const inner = parsed.success ? (parsed.data.generateContentRequest ?? parsed.data) : undefined;
  if (!inner?.contents)
    return { ok: false, message: 'The request needs contents or generateContentRequest.' };
  return { ok: true, body: { request: { ...inner, model: `models/${modelFromPath(model)}` } } };
}
