/**
 * The Chat Completions stream rebuilt as the `chat.completion` it streamed: each choice's message
 * from the chunks' deltas (role, content, refusal, reasoning, tool calls joined by index: id, name
 * and argument pieces), its finish reason, and the usage of the chunk that carries it.
 */
import { objectOf, type ReplyReassembler } from '../../spec/reply-reassembler.js';

interface ToolCall {
  index: number;
  id?: string;
  type: string;
  function: { name: string; arguments: string };
}

interface Choice {
  index: number;
  message: Record<string, unknown> & { role: string; content: string | null };
  toolCalls: Map<number, ToolCall>;
  finish_reason: unknown;
  logprobs?: unknown;
}

function appendTo(target: Record<string, unknown>, field: string, piece: unknown): void {
  if (typeof piece !== 'string') return;
  target[field] = (typeof target[field] === 'string' ? target[field] : '') + piece;
}

function applyToolCalls(choice: Choice, deltas: unknown): void {
  if (!Array.isArray(deltas)) return;
  for (const value of deltas) {
    const delta = objectOf(value);
    if (delta === null) continue;
    const index = typeof delta.index === 'number' ? delta.index : choice.toolCalls.size;
    let call = choice.toolCalls.get(index);
    if (call === undefined) {
      call = { index, type: 'function', function: { name: '', arguments: '' } };
      choice.toolCalls.set(index, call);
    }
    if (typeof delta.id === 'string') call.id = delta.id;
    if (typeof delta.type === 'string') call.type = delta.type;
    const fn = objectOf(delta.function);
    if (typeof fn?.name === 'string') call.function.name += fn.name;
    if (typeof fn?.arguments === 'string') call.function.arguments += fn.arguments;
  }
}

function applyChoice(choices: Map<number, Choice>, value: unknown): void {
  const delta = objectOf(value);
  if (delta === null) return;
  const index = typeof delta.index === 'number' ? delta.index : 0;
  let choice = choices.get(index);
  if (choice === undefined) {
    choice = {
      index,
      message: { role: 'assistant', content: null },
      toolCalls: new Map(),
      finish_reason: null,
    };
    choices.set(index, choice);
  }
  const change = objectOf(delta.delta);
  if (change !== null) {
    if (typeof change.role === 'string') choice.message.role = change.role;
    appendTo(choice.message, 'content', change.content);
    appendTo(choice.message, 'refusal', change.refusal);
    appendTo(choice.message, 'reasoning_content', change.reasoning_content);
    applyToolCalls(choice, change.tool_calls);
  }
  if (delta.finish_reason !== undefined && delta.finish_reason !== null) {
    choice.finish_reason = delta.finish_reason;
  }
  if (delta.logprobs !== undefined && delta.logprobs !== null) choice.logprobs = delta.logprobs;
}

export function createChatStreamReassembler(): ReplyReassembler {
  const head: Record<string, unknown> = {};
  const choices = new Map<number, Choice>();
  let usage: unknown;
  let seen = false;
  return {
    feed(payload) {
      const chunk = objectOf(payload);
      if (chunk === null) return;
      seen = true;
      for (const field of ['id', 'created', 'model', 'system_fingerprint', 'service_tier']) {
        if (chunk[field] !== undefined && chunk[field] !== null) head[field] = chunk[field];
      }
      if (chunk.error !== undefined) head.error = chunk.error;
      if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
      if (Array.isArray(chunk.choices))
        for (const choice of chunk.choices) applyChoice(choices, choice);
    },
    result() {
      if (!seen) return null;
      return {
        ...head,
        object: 'chat.completion',
        choices: [...choices.values()]
          .sort((a, b) => a.index - b.index)
          .map((choice) => ({
            index: choice.index,
            message:
              choice.toolCalls.size === 0
                ? choice.message
                : {
                    ...choice.message,
                    tool_calls: [...choice.toolCalls.values()]
                      .sort((a, b) => a.index - b.index)
                      .map((call) => ({
                        ...(call.id === undefined ? {} : { id: call.id }),
                        type: call.type,
                        function: call.function,
                      })),
                  },
            finish_reason: choice.finish_reason,
            ...(choice.logprobs === undefined ? {} : { logprobs: choice.logprobs }),
          })),
        ...(usage === undefined ? {} : { usage }),
      };
    },
  };
}
