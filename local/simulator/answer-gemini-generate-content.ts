/**
 * Gemini API on the fake: `:generateContent`, `:streamGenerateContent` (data-only SSE with `alt=sse`,
 * otherwise one JSON array written in pieces), `:countTokens`, `GET /v1beta/models` and
 * `GET /v1beta/models/{m}`. With function declarations and a last user text saying "use tool", the
 * last chunk also carries a `functionCall`. Stream chunks carry cumulative `usageMetadata`; the last has the
 * `finishReason` and the final counts (thoughts separate from candidates, cached inside the prompt).
 */
import {
  computeFakeAnswer,
  contentText,
  FAKE_TOOL_ARGUMENTS,
  firstToolName,
  wantsToolCall,
  type FakeAnswer,
} from './compute-fake-answer.js';
import { bodyFields, type FakeCall } from './fake-call.js';
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
  toolName: string | null;
}): Record<string, unknown>[] {
  const { answer } = options;
  const pieces = options.streamed ? answer.deltas : [answer.text];
  let soFar = '';
  return pieces.map((text, index) => {
    soFar += text;
    const final = index === pieces.length - 1;
    const candidates = final ? answer.textTokens : Math.ceil(soFar.length / 4);
    const call = { functionCall: { name: options.toolName, args: FAKE_TOOL_ARGUMENTS } };
    const parts = final && options.toolName !== null ? [{ text }, call] : [{ text }];
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

export function fakeAnswerFor(call: FakeCall, model: string): FakeAnswer {
  return computeFakeAnswer({ model, bodyBytes: call.bodyBytes, behaviour: call.behaviour });
}

/** The tool to call for a Gemini-shaped request (`contents`, `tools[].functionDeclarations`). */
export function geminiToolName(request: Record<string, unknown>): string | null {
  const contents = Array.isArray(request.contents) ? (request.contents as unknown[]) : [];
  const last = contents.at(-1) as { role?: unknown; parts?: unknown } | undefined;
  const lastUserText = last?.role === 'user' ? contentText(last.parts) : '';
  return wantsToolCall({ tools: request.tools, lastUserText })
    ? firstToolName(request.tools)
    : null;
}

export async function answerGeminiGenerate(
  call: FakeCall,
  options: { model: string; streamed: boolean },
): Promise<void> {
  const answer = fakeAnswerFor(call, options.model);
  const omitUsage = call.behaviour.omitUsage === true;
  const toolName = geminiToolName(bodyFields(call));
  const responses = geminiResponses({ answer, streamed: options.streamed, omitUsage, toolName });
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
