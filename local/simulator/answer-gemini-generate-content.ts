/**
 * Gemini API on the fake: `:generateContent`, `:streamGenerateContent` (data-only SSE with `alt=sse`,
 * otherwise one JSON array written in pieces), `:countTokens`, `GET /v1beta/models` and
 * `GET /v1beta/models/{m}`. When the reply calls a tool (answer-tool-calls.ts), the last chunk
 * also carries a `functionCall` part (no `id`: clients make their own). Stream chunks carry cumulative `usageMetadata`; the last has the
 * `finishReason` and the final counts (thoughts separate from candidates, cached inside the prompt).
 */
import { planToolTurn, type FakeToolCall, type FakeToolTurn } from './answer-tool-calls.js';
import { computeFakeAnswer, type FakeAnswer } from './compute-fake-answer.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import { readGeminiConversation } from './read-tool-conversation.js';
import { sendFrames, sendJson, sseFrame } from './write-fake-response.js';

const MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-3-pro-preview'];

export const GOOGLE_STREAM_ERROR = {
  error: { code: 500, message: 'fake stream error', status: 'INTERNAL' },
};

function usageMetadata(answer: FakeAnswer, candidates: number, final: boolean): unknown {
  const thoughts = final ? answer.reasoning : 0;
  return {
    promptTokenCount: answer.inputTotal,
    candidatesTokenCount: candidates,
    ...(final && answer.reasoning > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(final && answer.cacheRead > 0 ? { cachedContentTokenCount: answer.cacheRead } : {}),
    totalTokenCount: answer.inputTotal + candidates + thoughts,
  };
}

/** The `GenerateContentResponse` chunks of one answer (a single one when not streamed). */
export function geminiResponses(options: {
  answer: FakeAnswer;
  streamed: boolean;
  omitUsage: boolean;
  /** When set, the last chunk also carries a `functionCall` of this tool. */
  tool: FakeToolCall | null;
}): Record<string, unknown>[] {
  const { answer } = options;
  const pieces = options.streamed ? answer.deltas : [answer.text];
  let soFar = '';
  return pieces.map((text, index) => {
    soFar += text;
    const final = index === pieces.length - 1;
    const candidates = final ? answer.textTokens : Math.ceil(soFar.length / 4);
    const { tool } = options;
    const call = { functionCall: { name: tool?.name, args: tool?.arguments } };
    const parts = final && tool !== null ? [{ text }, call] : [{ text }];
    return {
      candidates: [
        {
          content: { role: 'model', parts },
          ...(final ? { finishReason: 'STOP' } : {}),
          index: 0,
        },
      ],
      ...(options.omitUsage ? {} : { usageMetadata: usageMetadata(answer, candidates, final) }),
      modelVersion: answer.model,
      responseId: 'fake-response-1',
    };
  });
}

export function fakeAnswerFor(call: FakeCall, model: string, turn?: FakeToolTurn): FakeAnswer {
  const { bodyBytes, behaviour } = call;
  return computeFakeAnswer({ model, bodyBytes, behaviour, deltas: turn?.deltas ?? null });
}

/** The tool turn of a Gemini-shaped request (`contents`, `tools[].functionDeclarations`). */
export function geminiToolTurn(request: Record<string, unknown>, model: string): FakeToolTurn {
  return planToolTurn(readGeminiConversation(request), model);
}

export async function answerGeminiGenerate(
  call: FakeCall,
  options: { model: string; streamed: boolean },
): Promise<void> {
  const turn = geminiToolTurn(bodyFields(call), options.model);
  const answer = fakeAnswerFor(call, options.model, turn);
  const omitUsage = call.behaviour.omitUsage === true;
  const tool = turn.call;
  const responses = geminiResponses({ answer, streamed: options.streamed, omitUsage, tool });
  if (!options.streamed) {
    await sendJson(call.write, { status: 200, body: responses[0] });
    return;
  }
  const streamError = call.behaviour.streamError === true;
  if (call.request.query.alt === 'sse') {
    const frames = responses.map((response) => sseFrame(response));
    if (streamError) frames.splice(-1, 1, sseFrame(GOOGLE_STREAM_ERROR));
    await sendFrames(call.write, { contentType: 'text/event-stream', frames });
    return;
  }
  const elements = responses.map((response) => JSON.stringify(response, null, 2));
  if (streamError) elements.splice(-1, 1, JSON.stringify(GOOGLE_STREAM_ERROR));
  const frames = elements.map((element, index) => `${index === 0 ? '[' : ',\r\n'}${element}`);
  frames.push(']');
  await sendFrames(call.write, { contentType: 'application/json', frames });
}

export async function answerGeminiCountTokens(call: FakeCall, model: string): Promise<void> {
  const answer = fakeAnswerFor(call, model);
  await sendJson(call.write, { status: 200, body: { totalTokens: answer.inputTotal } });
}

function modelInfo(id: string): Record<string, unknown> {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: `Fake ${id}`,
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  };
}

export async function answerGeminiModels(call: FakeCall, id?: string): Promise<void> {
  const body = id === undefined ? { models: MODELS.map(modelInfo) } : modelInfo(id);
  await sendJson(call.write, { status: 200, body });
}
