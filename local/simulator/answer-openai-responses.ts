/**
 * OpenAI Responses on the fake: `POST /v1/responses` as JSON, or SSE with `event:` lines and
 * `sequence_number`s in the recorded order (created, in_progress, output_item.added,
 * content_part.added, output_text.delta x N, output_text.done, content_part.done, output_item.done,
 * completed with usage). A reply that calls a tool (answer-tool-calls.ts) has one function_call
 * item instead (streamed: output_item.added with empty arguments, function_call_arguments.delta and
 * .done, output_item.done).
 */
import { planToolTurn, toolCallIds, type FakeToolCall } from './answer-tool-calls.js';
import { computeFakeAnswer, type FakeAnswer } from './compute-fake-answer.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import { readResponsesConversation } from './read-tool-conversation.js';
import { sendFrames, sendJson, sseFrame } from './write-fake-response.js';

const CREATED_AT = 1_768_560_502;

export function responsesUsage(answer: FakeAnswer): Record<string, unknown> {
  const output = answer.textTokens + answer.reasoning;
  return {
    input_tokens: answer.inputTotal,
    input_tokens_details: { cached_tokens: answer.cacheRead },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: answer.reasoning },
    total_tokens: answer.inputTotal + output,
  };
}

function outputItem(answer: FakeAnswer, tool: FakeToolCall | null): Record<string, unknown> {
  if (tool !== null) {
    const ids = toolCallIds(tool);
    return {
      type: 'function_call',
      id: ids.responsesItem,
      call_id: ids.callId,
      name: tool.name,
      arguments: JSON.stringify(tool.arguments),
      status: 'completed',
    };
  }
  return {
    type: 'message',
    id: 'msg_fake_1',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }],
  };
}

function responseObject(options: {
  answer: FakeAnswer;
  status: string;
  output: unknown[];
  usage: unknown;
}): Record<string, unknown> {
  return {
    id: 'resp_fake_1',
    object: 'response',
    created_at: CREATED_AT,
    status: options.status,
    model: options.answer.model,
    error: null,
    incomplete_details: null,
    output: options.output,
    usage: options.usage,
    store: false,
  };
}

function streamFrames(call: FakeCall, answer: FakeAnswer, tool: FakeToolCall | null): string[] {
  let sequence = 0;
  const event = (data: Record<string, unknown>): string => {
    const frame = sseFrame({ ...data, sequence_number: sequence }, String(data.type));
    sequence += 1;
    return frame;
  };
  const started = responseObject({ answer, status: 'in_progress', output: [], usage: null });
  const item = outputItem(answer, tool);
  const frames = [
    event({ type: 'response.created', response: started }),
    event({ type: 'response.in_progress', response: started }),
  ];
  if (tool !== null) {
    frames.push(
      event({
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, arguments: '' },
      }),
      event({
        type: 'response.function_call_arguments.delta',
        item_id: item.id,
        output_index: 0,
        delta: String(item.arguments),
      }),
      event({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index: 0,
        arguments: item.arguments,
      }),
    );
  } else {
    const at = { item_id: 'msg_fake_1', output_index: 0, content_index: 0 };
    const part = { type: 'output_text', text: answer.text, annotations: [] };
    frames.push(
      event({
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, status: 'in_progress', content: [] },
      }),
      event({ type: 'response.content_part.added', ...at, part: { ...part, text: '' } }),
    );
    // One push per delta: spread into push's arguments, a long answer passes V8's argument limit.
    for (const delta of answer.deltas) {
      frames.push(event({ type: 'response.output_text.delta', ...at, delta, logprobs: [] }));
    }
    frames.push(
      event({ type: 'response.output_text.done', ...at, text: answer.text }),
      event({ type: 'response.content_part.done', ...at, part }),
    );
  }
  frames.push(event({ type: 'response.output_item.done', output_index: 0, item }));
  if (call.behaviour.streamError === true) {
    frames.push(
      event({ type: 'error', code: 'server_error', message: 'fake stream error', param: null }),
    );
  } else {
    const usage = call.behaviour.omitUsage === true ? null : responsesUsage(answer);
    const done = responseObject({ answer, status: 'completed', output: [item], usage });
    frames.push(event({ type: 'response.completed', response: done }));
  }
  return frames;
}

export async function answerOpenAIResponses(call: FakeCall): Promise<void> {
  const body = bodyFields(call);
  const model = typeof body.model === 'string' ? body.model : 'gpt-fake';
  const turn = planToolTurn(readResponsesConversation(body), model);
  const { bodyBytes, behaviour } = call;
  const answer = computeFakeAnswer({ model, bodyBytes, behaviour, deltas: turn.deltas });
  if (body.stream === true) {
    const frames = streamFrames(call, answer, turn.call);
    await sendFrames(call.write, { contentType: 'text/event-stream', frames });
    return;
  }
  const usage = call.behaviour.omitUsage === true ? null : responsesUsage(answer);
  if (call.behaviour.streamError === true) {
    // A whole reply can fail too: HTTP 200 with `status: "failed"` and the error inside.
    const failed = responseObject({ answer, status: 'failed', output: [], usage });
    const error = { code: 'server_error', message: 'fake response failed' };
    await sendJson(call.write, { status: 200, body: { ...failed, error } });
    return;
  }
  const output = [outputItem(answer, turn.call)];
  await sendJson(call.write, {
    status: 200,
    body: responseObject({ answer, status: 'completed', output, usage }),
  });
}
