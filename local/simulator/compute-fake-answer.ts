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
}): FakeAnswer {
  const { behaviour } = options;
  const chunkCount = Math.max(1, behaviour.chunks ?? 3);
  const deltas = [`FAKE_OK ${options.model}`];
  for (let index = 1; index < chunkCount; index += 1) deltas.push(` part${index}`);
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

/** True when the request asks for a tool call: it has tools and its last user text says "use tool". */
export function wantsToolCall(options: { tools: unknown; lastUserText: string }): boolean {
  return (
    Array.isArray(options.tools) &&
    options.tools.length > 0 &&
    options.lastUserText.toLowerCase().includes('use tool')
  );
}

/** The `name` of the first tool, wherever the platform keeps it. */
export function firstToolName(tools: unknown): string {
  if (!Array.isArray(tools)) return 'tool';
  const first: unknown = tools[0];
  if (typeof first !== 'object' || first === null) return 'tool';
  const fields = first as {
    name?: unknown;
    function?: { name?: unknown };
    functionDeclarations?: { name?: unknown }[];
  };
  if (typeof fields.name === 'string') return fields.name;
  if (typeof fields.function?.name === 'string') return fields.function.name;
  const declared = fields.functionDeclarations?.[0]?.name;
  return typeof declared === 'string' ? declared : 'tool';
}

/** Arguments of every fake tool call. */
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
