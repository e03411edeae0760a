import { encodeDataFrame } from '../../../bytes/encode-sse-frame.js';
import { convertResponsesUsage } from './convert-responses-usage.js';
import { toChatCompletionId } from './convert-responses-reply.js';
import { mapResponsesFinishReason, type ChatFinishReason } from './map-responses-finish-reason.js';
import type { ResponsesUsage } from './responses-reply-schema.js';
import {
  responsesStreamEventSchema,
  type ResponsesStreamEvent,
} from './responses-stream-event-schema.js';

/** How the translated stream ended: `cut-off` means no terminal event, so usage is unknown. */
export type ChatStreamOutcome = 'open' | 'completed' | 'incomplete' | 'failed' | 'cut-off';

export interface ChatStreamTranslator {
  /** One parsed Responses SSE event -> the Chat SSE frames (`data: …\n\n`) to write. */
  push: (event: unknown) => string[];
  /** The upstream closed: finish a stream that saw no terminal event (finish chunk + [DONE]). */
  end: () => string[];
  /** The upstream usage from the terminal event, if one carried it (never invented). */
  readonly usage: ResponsesUsage | undefined;
  readonly outcome: ChatStreamOutcome;
}

interface StreamState {
  includeUsage: boolean;
  id: string;
  model: string;
  created: number;
  started: boolean;
  toolIndexByOutput: Map<number | string, number>;
  toolCount: number;
  usage: ResponsesUsage | undefined;
  outcome: ChatStreamOutcome;
}

const terminalOutcomes: Readonly<Record<string, ChatStreamOutcome>> = {
  'response.completed': 'completed',
  'response.done': 'completed',
  'response.incomplete': 'incomplete',
  'response.failed': 'failed',
  error: 'failed',
};

function chunk(
  state: StreamState,
  choice: { delta: object; finish?: ChatFinishReason; logprobs?: unknown[] },
) {
  const logprobs =
    choice.logprobs && choice.logprobs.length > 0
      ? { content: choice.logprobs, refusal: null }
      : null;
  return encodeDataFrame({
    id: state.id,
    object: 'chat.completion.chunk',
    created: state.created,
    model: state.model,
    choices: [{ index: 0, delta: choice.delta, logprobs, finish_reason: choice.finish ?? null }],
    ...(state.includeUsage ? { usage: null } : {}),
  });
}

function adoptResponse(state: StreamState, event: ResponsesStreamEvent): void {
  const response = event.response;
  if (!response) return;
  if (response.id != null) state.id = toChatCompletionId(response.id);
  if (response.model != null) state.model = response.model;
  if (response.created_at != null) state.created = response.created_at;
}

/** The first chunk announces the assistant role; emitted lazily if `response.created` is missing. */
function start(state: StreamState): string[] {
  if (state.started) return [];
  state.started = true;
  return [chunk(state, { delta: { role: 'assistant', content: '' } })];
}

function toolIndex(state: StreamState, event: ResponsesStreamEvent): number | undefined {
  const byOutput =
    event.output_index == null ? undefined : state.toolIndexByOutput.get(event.output_index);
  return (
    byOutput ?? (event.item_id == null ? undefined : state.toolIndexByOutput.get(event.item_id))
  );
}

function finishFrames(state: StreamState, event: ResponsesStreamEvent): string[] {
  const response = event.response;
  if (response?.usage) state.usage = response.usage;
  const finish = mapResponsesFinishReason({
    status: event.type === 'response.incomplete' ? 'incomplete' : 'completed',
    incompleteReason: response?.incomplete_details?.reason,
    sawFunctionCall: state.toolCount > 0,
  });
  const frames = [...start(state), chunk(state, { delta: {}, finish: finish ?? 'stop' })];
  if (state.includeUsage && state.usage) {
    const usage = convertResponsesUsage(state.usage);
    const { id, created, model } = state;
    frames.push(
      encodeDataFrame({ id, object: 'chat.completion.chunk', created, model, choices: [], usage }),
    );
  }
  return [...frames, encodeDataFrame('[DONE]')];
}

function errorFrames(state: StreamState, event: ResponsesStreamEvent): string[] {
  if (event.response?.usage) state.usage = event.response.usage;
  const source = event.response?.error ?? event.error ?? event;
  const error = {
    message: source.message ?? 'The upstream response failed.',
    type: 'server_error',
    param: null,
    code: source.code ?? null,
  };
  return [encodeDataFrame({ error })];
}

type Handler = (state: StreamState, event: ResponsesStreamEvent) => string[];

/** Event type -> Chat frames (wire-formats.md 3.4). Types not listed emit nothing. */
const handlers: Readonly<Record<string, Handler>> = {
  'response.created': (state, event) => {
    adoptResponse(state, event);
    return start(state);
  },
  'response.in_progress': (state, event) => {
    adoptResponse(state, event);
    return [];
  },
  'response.output_text.delta': (state, event) => [
    ...start(state),
    chunk(state, { delta: { content: event.delta ?? '' }, logprobs: event.logprobs ?? [] }),
  ],
  'response.refusal.delta': (state, event) => [
    ...start(state),
    chunk(state, { delta: { refusal: event.delta ?? '' } }),
  ],
  'response.output_item.added': (state, event) => {
    const item = event.item;
    if (item?.type !== 'function_call') return [];
    const index = state.toolCount++;
    if (event.output_index != null) state.toolIndexByOutput.set(event.output_index, index);
    if (item.id != null) state.toolIndexByOutput.set(item.id, index);
    const call = {
      index,
      id: item.call_id ?? item.id ?? '',
      type: 'function',
      function: { name: item.name ?? '', arguments: '' },
    };
    return [...start(state), chunk(state, { delta: { tool_calls: [call] } })];
  },
  'response.function_call_arguments.delta': (state, event) => {
    const index = toolIndex(state, event);
    if (index === undefined || !event.delta) return [];
    return [
      ...start(state),
      chunk(state, { delta: { tool_calls: [{ index, function: { arguments: event.delta } }] } }),
    ];
  },
};

/** A state machine turning a Responses event stream into Chat Completions chunks. */
export function createChatStreamTranslator(options: {
  includeUsage: boolean;
}): ChatStreamTranslator {
  const state: StreamState = {
    includeUsage: options.includeUsage,
    id: toChatCompletionId(undefined),
    model: '',
    created: 0,
    started: false,
    toolIndexByOutput: new Map(),
    toolCount: 0,
    usage: undefined,
    outcome: 'open',
  };
  const push = (raw: unknown): string[] => {
    if (state.outcome !== 'open') return [];
    const parsed = responsesStreamEventSchema.safeParse(raw);
    if (!parsed.success) return [];
    const event = parsed.data;
    const terminal = terminalOutcomes[event.type];
    if (terminal === undefined) return handlers[event.type]?.(state, event) ?? [];
    state.outcome = terminal;
    adoptResponse(state, event);
    return terminal === 'failed' ? errorFrames(state, event) : finishFrames(state, event);
  };
  const end = (): string[] => {
    if (state.outcome !== 'open') return [];
    state.outcome = 'cut-off';
    return [
      ...start(state),
      chunk(state, { delta: {}, finish: 'stop' }),
      encodeDataFrame('[DONE]'),
    ];
  };
  return {
    push,
    end,
    get usage() {
      return state.usage;
    },
    get outcome() {
      return state.outcome;
    },
  };
}
