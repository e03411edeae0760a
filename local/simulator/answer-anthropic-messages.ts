/**
 * Anthropic Messages on the fake: `POST /v1/messages` (JSON, or SSE with `event:` lines in the real
 * order: message_start, content blocks, ping, message_delta with cumulative usage, message_stop),
 * `POST /v1/messages/count_tokens`, `GET /v1/models`, `GET /v1/models/{id}`. A reply that calls a
 * tool (answer-tool-calls.ts) adds a `tool_use` block after the text (streamed: content_block_start
 * with `input: {}`, one input_json_delta, content_block_stop) and stops with `tool_use`.
 */
import { planToolTurn, toolCallIds, type FakeToolCall } from './answer-tool-calls.js';
import { computeFakeAnswer, type FakeAnswer } from './compute-fake-answer.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import { readAnthropicConversation } from './read-tool-conversation.js';
import { sendFrames, sendJson, sseFrame } from './write-fake-response.js';

const MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-opus-4-5-20251101',
  'claude-haiku-4-5-20251001',
];

function usageOf(answer: FakeAnswer, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: answer.inputTotal - answer.cacheRead - answer.cacheWrite5m - answer.cacheWrite1h,
    cache_creation_input_tokens: answer.cacheWrite5m + answer.cacheWrite1h,
    cache_read_input_tokens: answer.cacheRead,
    cache_creation: {
      ephemeral_5m_input_tokens: answer.cacheWrite5m,
      ephemeral_1h_input_tokens: answer.cacheWrite1h,
    },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

function prepare(call: FakeCall): { answer: FakeAnswer; tool: FakeToolCall | null } {
  const body = bodyFields(call);
  const model = typeof body.model === 'string' ? body.model : 'claude-fake';
  const turn = planToolTurn(readAnthropicConversation(body), model);
  const { bodyBytes, behaviour } = call;
  const answer = computeFakeAnswer({ model, bodyBytes, behaviour, deltas: turn.deltas });
  return { answer, tool: turn.call };
}

/** `vertexEvent`: a stream also carries Vertex AI's `vertex_event` (usage) before `message_stop`. */
export async function answerAnthropicMessages(
  call: FakeCall,
  options: { vertexEvent?: boolean } = {},
): Promise<void> {
  const { answer, tool } = prepare(call);
  const toolName = tool === null ? null : tool.name;
  const omitUsage = call.behaviour.omitUsage === true;
  const output = answer.textTokens + answer.reasoning;
  const stopReason = toolName === null ? 'end_turn' : 'tool_use';
  const toolBlock = {
    type: 'tool_use',
    id: tool === null ? '' : toolCallIds(tool).anthropic,
    name: toolName,
    input: tool?.arguments ?? {},
  };
  if (bodyFields(call).stream !== true) {
    await sendJson(call.write, {
      status: 200,
      body: {
        id: 'msg_fake_1',
        type: 'message',
        role: 'assistant',
        model: answer.model,
        content: [{ type: 'text', text: answer.text }, ...(toolName === null ? [] : [toolBlock])],
        stop_reason: stopReason,
        stop_sequence: null,
        ...(omitUsage ? {} : { usage: usageOf(answer, output) }),
      },
    });
    return;
  }
  const message = {
    id: 'msg_fake_1',
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    ...(omitUsage ? {} : { usage: usageOf(answer, 1) }),
  };
  const event = (data: Record<string, unknown>): string => sseFrame(data, String(data.type));
  const frames = [
    event({ type: 'message_start', message }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event({ type: 'ping' }),
    ...answer.deltas.map((text) =>
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    ),
    event({ type: 'content_block_stop', index: 0 }),
  ];
  if (toolName !== null) {
    frames.push(
      event({ type: 'content_block_start', index: 1, content_block: { ...toolBlock, input: {} } }),
      event({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(toolBlock.input) },
      }),
      event({ type: 'content_block_stop', index: 1 }),
    );
  }
  if (call.behaviour.streamError === true) {
    frames.push(
      event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    );
  } else {
    const usage = usageOf(answer, output);
    delete usage.cache_creation;
    delete usage.service_tier;
    frames.push(
      event({
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        ...(omitUsage ? {} : { usage }),
      }),
    );
    if (options.vertexEvent === true) frames.push(event({ type: 'vertex_event', usage }));
    frames.push(event({ type: 'message_stop' }));
  }
  await sendFrames(call.write, { contentType: 'text/event-stream', frames });
}

export async function answerAnthropicCountTokens(call: FakeCall): Promise<void> {
  const { answer } = prepare(call);
  await sendJson(call.write, { status: 200, body: { input_tokens: answer.inputTotal } });
}

function modelInfo(id: string): Record<string, unknown> {
  return {
    type: 'model',
    id,
    display_name: `Fake ${id}`,
    created_at: '2025-09-29T00:00:00Z',
  };
}

export async function answerAnthropicModels(call: FakeCall, id?: string): Promise<void> {
  if (id !== undefined) {
    await sendJson(call.write, { status: 200, body: modelInfo(id) });
    return;
  }
  await sendJson(call.write, {
    status: 200,
    body: {
      data: MODELS.map(modelInfo),
      has_more: false,
      first_id: MODELS[0],
      last_id: MODELS.at(-1),
    },
  });
}
