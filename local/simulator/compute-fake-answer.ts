/**
 * The deterministic content of every fake answer: the text (`FAKE_OK <model>` split into deltas), and
 * token counts derived from the request (input = body bytes / 4, rounded up; output = answer chars / 4)
 * plus the cache and reasoning figures the behaviour asks for.
 */
import type { FakeBehaviour } from './fake-behaviour.js';

export interface FakeAnswer {
  model: string;
  deltas: string[];
  text: string;
  /** All prompt tokens, cached ones included. */
  inputTotal: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  /** Visible output tokens (reasoning excluded). */
  textTokens: number;
  reasoning: number;
}

export function computeFakeAnswer(options: {
  model: string;
  bodyBytes: number;
  behaviour: FakeBehaviour;
  /** The text deltas when not the usual ones (a tool session's answer, answer-tool-calls.ts). */
  deltas?: string[] | null;
}): FakeAnswer {
  const { behaviour } = options;
  const chunkCount = Math.max(1, behaviour.chunks ?? 3);
  const deltas =
    options.deltas ??
    (behaviour.text === undefined
      ? [`FAKE_OK ${options.model}`]
      : splitText(behaviour.text, chunkCount));
  if ((options.deltas === undefined || options.deltas === null) && behaviour.text === undefined) {
    for (let index = 1; index < chunkCount; index += 1) deltas.push(` part${index}`);
  }
  const text = deltas.join('');
  const cacheRead = behaviour.cacheReadTokens ?? 0;
  const cacheWrite5m = behaviour.cacheWrite5mTokens ?? 0;
  const cacheWrite1h = behaviour.cacheWrite1hTokens ?? 0;
  const cached = cacheRead + cacheWrite5m + cacheWrite1h;
  return {
    model: options.model,
    deltas,
    text,
    inputTotal: Math.max(Math.ceil(options.bodyBytes / 4), cached + 1),
    cacheRead,
    cacheWrite5m,
    cacheWrite1h,
    textTokens: Math.ceil(text.length / 4),
    reasoning: behaviour.reasoningTokens ?? 0,
  };
}

/** `text` in `count` pieces of about equal length (the last takes the rest). */
function splitText(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces.length === 0 ? [''] : pieces;
}

/** Arguments of the tool call a "use tool" prompt gets (answer-tool-calls.ts). */
export const FAKE_TOOL_ARGUMENTS = { query: 'FAKE_OK' };

/** All text of a message content (a string, or parts with `text`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' &&
      part !== null &&
      typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}
