/**
 * The simulator's tool sessions: when a reply calls a tool, and what the answer says once the tool
 * results are back. Deterministic, on every platform (the renderers in the answer-*.ts files turn
 * the plan into each wire format). Pure.
 *
 * - **Marker lines.** A user prompt may hold lines `TOOL:<name> <json object>` (one per line). The
 *   reply to that prompt calls the first marker's tool with that object as its arguments; each
 *   later reply (the conversation now ends with the tool results) calls the next marker's tool,
 *   counting the tool results that came back since the prompt; when every marker has had its
 *   result, the reply is text: `FAKE_OK <model> after tools:` and each result (its first
 *   1,000 characters), so a test sees the tool's output came back through the model. A marker
 *   naming a tool the request does not offer gets a text answer saying so, and no call.
 * - **"use tool".** Without markers, a last user text saying "use tool" in a request offering
 *   tools calls the first offered tool with `{"query":"FAKE_OK"}`.
 *
 * Every reply that calls a tool also carries the usual `FAKE_OK` text before the call.
 */
import { FAKE_TOOL_ARGUMENTS } from './compute-fake-answer.js';
import type { ConversationTurn, ToolConversation } from './read-tool-conversation.js';

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** 1 for the session's first call, 2 for the next: the ids are built from it. */
  index: number;
}

export interface FakeToolTurn {
  /** The tool the reply calls, or null for a text-only reply. */
  call: FakeToolCall | null;
  /** The reply's text deltas when they are not the usual `FAKE_OK` ones. */
  deltas: string[] | null;
}

export interface ToolMarker {
  name: string;
  arguments: Record<string, unknown>;
}

const MARKER = /^TOOL:([\w.:-]+)[ \t]+(\{.*\})[ \t]*$/gm;
/** Characters of each tool result the final answer repeats. */
export const RESULT_ECHO_LIMIT = 1000;

/** The `TOOL:<name> <json>` lines of a text, in order; lines whose JSON is no object are skipped. */
export function readToolMarkers(text: string): ToolMarker[] {
  return [...text.matchAll(MARKER)].flatMap((match): ToolMarker[] => {
    try {
      const parsed: unknown = JSON.parse(match[2] ?? '');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
      return [{ name: match[1] ?? '', arguments: parsed as Record<string, unknown> }];
    } catch {
      return [];
    }
  });
}

/** The ids of a call on each platform. */
export function toolCallIds(call: FakeToolCall): {
  anthropic: string;
  responsesItem: string;
  callId: string;
} {
  return {
    anthropic: `toolu_fake_${call.index}`,
    responsesItem: `fc_fake_${call.index}`,
    callId: `call_fake_${call.index}`,
  };
}

/** The prompt (the last user turn without tool results) and the tool results after it. */
function splitAtPrompt(turns: readonly ConversationTurn[]): {
  prompt: ConversationTurn | undefined;
  results: string[];
} {
  const results: string[] = [];
  for (let index = turns.length - 1; index >= 0; index -= 1) {
    const turn = turns[index];
    if (turn === undefined || turn.role !== 'user') continue;
    if (turn.toolResults.length === 0) return { prompt: turn, results };
    results.unshift(...turn.toolResults);
  }
  return { prompt: undefined, results };
}

const TEXT_ONLY: FakeToolTurn = { call: null, deltas: null };

function legacyTurn(conversation: ToolConversation): FakeToolTurn {
  const last = conversation.turns.at(-1);
  const asks =
    last?.role === 'user' &&
    last.toolResults.length === 0 &&
    last.text.toLowerCase().includes('use tool');
  const name = conversation.offered[0];
  if (!asks || name === undefined) return TEXT_ONLY;
  return { call: { name, arguments: FAKE_TOOL_ARGUMENTS, index: 1 }, deltas: null };
}

/** What the reply to this conversation does: call a tool, answer with the results, or neither. */
export function planToolTurn(conversation: ToolConversation, model: string): FakeToolTurn {
  const { prompt, results } = splitAtPrompt(conversation.turns);
  const markers = readToolMarkers(prompt?.text ?? '');
  if (markers.length === 0) return legacyTurn(conversation);
  const next = markers[results.length];
  if (next === undefined) {
    const echoed = results.map((result) => ` ${result.slice(0, RESULT_ECHO_LIMIT)}`);
    return { call: null, deltas: [`FAKE_OK ${model}`, ' after tools:', ...echoed] };
  }
  if (!conversation.offered.includes(next.name)) {
    return { call: null, deltas: [`FAKE_OK ${model}`, ` (tool ${next.name} not offered)`] };
  }
  return {
    call: { name: next.name, arguments: next.arguments, index: results.length + 1 },
    deltas: null,
  };
}
