/**
 * OpenAI Chat Completions and the OpenAI model list on the fake: `POST /v1/chat/completions` as JSON
 * or `chat.completion.chunk`s ending in `data: [DONE]`, with the usage chunk (`choices: []`) only
 * when `stream_options.include_usage` is set, and `tool_calls` when the reply calls a tool
 * (answer-tool-calls.ts); `GET /v1/models`, `GET /v1/models/{id}`.
 */
import { planToolTurn, toolCallIds } from './answer-tool-calls.js';
import { computeFakeAnswer, type FakeAnswer } from './compute-fake-answer.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import { readChatConversation } from './read-tool-conversation.js';
import { sendFrames, sendJson, sseFrame } from './write-fake-response.js';

const CREATED = 1_753_343_279;
const MODELS = ['gpt-5', 'gpt-4.1', 'gpt-4o-mini'];

function chatUsage(answer: FakeAnswer): Record<string, unknown> {
  const completion = answer.textTokens + answer.reasoning;
  return {
    prompt_tokens: answer.inputTotal,
    completion_tokens: completion,
    total_tokens: answer.inputTotal + completion,
    prompt_tokens_details: { cached_tokens: answer.cacheRead, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: answer.reasoning, audio_tokens: 0 },
  };
}

export async function answerOpenAIChat(call: FakeCall): Promise<void> {
  const body = bodyFields(call);
  const model = typeof body.model === 'string' ? body.model : 'gpt-fake';
  const turn = planToolTurn(readChatConversation(body), model);
  const { bodyBytes, behaviour } = call;
  const answer = computeFakeAnswer({ model, bodyBytes, behaviour, deltas: turn.deltas });
  const omitUsage = call.behaviour.omitUsage === true;
  const base = { id: 'chatcmpl-fake', created: CREATED, model };
  const toolName = turn.call === null ? null : turn.call.name;
  const finishReason = toolName === null ? 'stop' : 'tool_calls';
  const argumentsText = JSON.stringify(turn.call?.arguments ?? {});
  const toolCall = {
    id: turn.call === null ? '' : toolCallIds(turn.call).callId,
    type: 'function',
    function: { name: toolName, arguments: argumentsText },
  };
  if (body.stream !== true) {
    await sendJson(call.write, {
      status: 200,
      body: {
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: answer.text,
              refusal: null,
              annotations: [],
              ...(toolName === null ? {} : { tool_calls: [toolCall] }),
            },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        ...(omitUsage ? {} : { usage: chatUsage(answer) }),
      },
    });
    return;
  }
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  const includeUsage = options?.include_usage === true && !omitUsage;
  const chunk = (choices: unknown[], usage: unknown = null): string =>
    sseFrame({ ...base, object: 'chat.completion.chunk', choices, usage });
  const choice = (delta: unknown, finish: string | null): unknown => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finish,
  });
  const frames = [
    chunk([choice({ role: 'assistant', content: '', refusal: null }, null)]),
    ...answer.deltas.map((content) => chunk([choice({ content }, null)])),
  ];
  if (toolName !== null) {
    const opening = { ...toolCall, index: 0, function: { name: toolName, arguments: '' } };
    const rest = { index: 0, function: { arguments: argumentsText } };
    frames.push(chunk([choice({ tool_calls: [opening] }, null)]));
    frames.push(chunk([choice({ tool_calls: [rest] }, null)]));
  }
  if (call.behaviour.streamError === true) {
    frames.push(sseFrame({ error: { message: 'fake stream error', type: 'server_error' } }));
  } else {
    frames.push(chunk([choice({}, finishReason)]));
    if (includeUsage) frames.push(chunk([], chatUsage(answer)));
    frames.push(sseFrame('[DONE]'));
  }
  await sendFrames(call.write, { contentType: 'text/event-stream', frames });
}

function modelInfo(id: string): Record<string, unknown> {
  return { id, object: 'model', created: 1_744_316_542, owned_by: 'system' };
}

export async function answerOpenAIModels(call: FakeCall, id?: string): Promise<void> {
  const body = id === undefined ? { object: 'list', data: MODELS.map(modelInfo) } : modelInfo(id);
  await sendJson(call.write, { status: 200, body });
}
