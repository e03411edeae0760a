import { z } from 'zod';

const envelopeSchema = z.looseObject({
  response: z.record(z.string(), z.unknown()).nullish(),
  traceId: z.string().nullish(),
  responseId: z.string().nullish(),
});

/**
 * An Antigravity reply or stream chunk `{response:{…}, traceId}` -> the plain Gemini response.
 * `responseId` falls back to the envelope's `responseId`, then `traceId` (as gemini-cli does).
 * Anything else (an `{error:{…}}` body, for example) is returned unchanged.
 */
export function unwrapAntigravityReply(body: unknown): unknown {
  const parsed = envelopeSchema.safeParse(body);
  if (!parsed.success || !parsed.data.response) return body;
  const { response, traceId, responseId } = parsed.data;
  const id = response['responseId'] ?? responseId ?? traceId;
  return id == null ? response : { ...response, responseId: id };
}

/**
 * One line of an Antigravity SSE stream -> the same line for a Gemini client: `data:` payloads are
 * unwrapped, every other line (blank separators, comments, unparsable data) passes unchanged.
 */
export function unwrapAntigravityStreamLine(line: string): string {
  const match = /^data: ?(.*)$/s.exec(line);
  const payload = match?.[1];
  if (payload === undefined) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return line;
  }
  return `data: ${JSON.stringify(unwrapAntigravityReply(parsed))}`;
}
