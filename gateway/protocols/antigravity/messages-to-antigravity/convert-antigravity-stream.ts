import { encodeEventFrame } from '../../../bytes/encode-sse-frame.js';
import { generateToolUseId, type ReplyOptions } from './convert-antigravity-reply.js';
import { mapAntigravityUsage, type AnthropicUsage } from './map-antigravity-usage.js';
import { mapGoogleStatusToAnthropicType } from './map-google-error-type.js';
import { mapAntigravityStopReason } from './map-antigravity-stop-reason.js';
import {
  antigravityReplySchema,
  type GeminiReplyPart,
  type GeminiUsage,
} from './antigravity-reply-schema.js';

export interface MessagesStreamTranslator {
  /** One parsed Antigravity SSE chunk `{response:{…}}` -> Anthropic SSE frames (`event:` + `data:`). */
  push: (chunk: unknown) => string[];
  /** The upstream closed (Antigravity streams end by closing): close blocks, message_delta, message_stop. */
  end: () => string[];
  /** Usage in Anthropic terms from the last usageMetadata seen (cumulative: last wins). */
  readonly usage: AnthropicUsage | undefined;
  /** The last raw Gemini usageMetadata seen. */
  readonly rawUsage: GeminiUsage | undefined;
  /** 'cut-off' when the stream closed before any chunk carried a finishReason. */
  readonly outcome: 'open' | 'finished' | 'cut-off' | 'failed';
}

type BlockKind = 'thinking' | 'text' | 'tool_use';

interface StreamState {
  options: ReplyOptions;
  started: boolean;
  nextIndex: number;
  open: { kind: BlockKind; index: number; signature: string } | undefined;
  sawToolUse: boolean;
  finishReason: string | undefined;
  promptBlocked: boolean;
  rawUsage: GeminiUsage | undefined;
  outcome: MessagesStreamTranslator['outcome'];
}

const frame = (data: { type: string } & Record<string, unknown>) =>
  encodeEventFrame(data.type, data);

function start(state: StreamState): string[] {
  if (state.started) return [];
  state.started = true;
  const message = {
    id: state.options.messageId,
    type: 'message',
    role: 'assistant',
    model: state.options.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: mapAntigravityUsage(state.rawUsage),
  };
  return [frame({ type: 'message_start', message })];
}

function closeBlock(state: StreamState): string[] {
  const open = state.open;
  if (!open) return [];
  state.open = undefined;
  const frames: string[] = [];
  if (open.kind === 'thinking' && open.signature !== '') {
    const delta = { type: 'signature_delta', signature: open.signature };
    frames.push(frame({ type: 'content_block_delta', index: open.index, delta }));
  }
  return [...frames, frame({ type: 'content_block_stop', index: open.index })];
}

function openBlock(
  state: StreamState,
  kind: BlockKind,
  contentBlock: Record<string, unknown>,
): string[] {
  const frames = closeBlock(state);
  const index = state.nextIndex++;
  state.open = { kind, index, signature: '' };
  return [...frames, frame({ type: 'content_block_start', index, content_block: contentBlock })];
}

function delta(state: StreamState, body: Record<string, unknown>): string {
  return frame({ type: 'content_block_delta', index: state.open?.index ?? 0, delta: body });
}

/** One Gemini part -> frames; consecutive thought (or text) parts share one block. */
function translatePart(state: StreamState, part: GeminiReplyPart): string[] {
  if (part.thought !== true && part.thoughtSignature && state.open?.kind === 'thinking')
    state.open.signature = part.thoughtSignature;
  if (part.functionCall) {
    const { name, args, id } = part.functionCall;
    const toolId = id ?? generateToolUseId(state.options.messageId, state.nextIndex);
    state.sawToolUse = true;
    const frames = openBlock(state, 'tool_use', { type: 'tool_use', id: toolId, name, input: {} });
    frames.push(
      delta(state, { type: 'input_json_delta', partial_json: JSON.stringify(args ?? {}) }),
    );
    return [...frames, ...closeBlock(state)];
  }
  if (part.thought === true) {
    const frames =
      state.open?.kind === 'thinking'
        ? []
        : openBlock(state, 'thinking', { type: 'thinking', thinking: '' });
    if (part.thoughtSignature && state.open) state.open.signature = part.thoughtSignature;
    if (part.text) frames.push(delta(state, { type: 'thinking_delta', thinking: part.text }));
    return frames;
  }
  if (!part.text) return [];
  const frames =
    state.open?.kind === 'text' ? [] : openBlock(state, 'text', { type: 'text', text: '' });
  return [...frames, delta(state, { type: 'text_delta', text: part.text })];
}

function translateChunk(state: StreamState, raw: unknown): string[] {
  const parsed = antigravityReplySchema.safeParse(raw);
  if (!parsed.success) return [];
  const { response, error } = parsed.data;
  if (error) {
    state.outcome = 'failed';
    const body = {
      type: mapGoogleStatusToAnthropicType(error.status),
      message: error.message ?? 'Upstream error.',
    };
    return [frame({ type: 'error', error: body })];
  }
  if (!response) return [];
  if (response.usageMetadata) state.rawUsage = response.usageMetadata;
  if (response.promptFeedback?.blockReason != null && !response.candidates)
    state.promptBlocked = true;
  const frames = start(state);
  for (const candidate of response.candidates?.slice(0, 1) ?? []) {
    for (const part of candidate.content?.parts ?? []) frames.push(...translatePart(state, part));
    if (candidate.finishReason) state.finishReason = candidate.finishReason;
  }
  return frames;
}

function finish(state: StreamState): string[] {
  state.outcome = state.finishReason === undefined && !state.promptBlocked ? 'cut-off' : 'finished';
  const stopReason = mapAntigravityStopReason({
    finishReason: state.finishReason,
    sawFunctionCall: state.sawToolUse,
    promptBlocked: state.promptBlocked,
  });
  return [
    ...start(state),
    ...closeBlock(state),
    frame({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: mapAntigravityUsage(state.rawUsage),
    }),
    frame({ type: 'message_stop' }),
  ];
}

/** A state machine turning Antigravity stream chunks into an Anthropic Messages event stream. */
export function createMessagesStreamTranslator(options: ReplyOptions): MessagesStreamTranslator {
  const state: StreamState = {
    options,
    started: false,
    nextIndex: 0,
    open: undefined,
    sawToolUse: false,
    finishReason: undefined,
    promptBlocked: false,
    rawUsage: undefined,
    outcome: 'open',
  };
  return {
    push: (chunk) => (state.outcome === 'open' ? translateChunk(state, chunk) : []),
    end: () => (state.outcome === 'open' ? finish(state) : []),
    get usage() {
      return state.rawUsage && mapAntigravityUsage(state.rawUsage);
    },
    get rawUsage() {
      return state.rawUsage;
    },
    get outcome() {
      return state.outcome;
    },
  };
}
