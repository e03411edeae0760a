/**
 * Google Vertex AI on the fake: Claude on `…/publishers/anthropic/models/{m}:rawPredict` and
 * `:streamRawPredict` (Anthropic Messages without `model` in the body and with `anthropic_version:
 * vertex-2023-10-16`; a stream carries Vertex's extra `vertex_event` event before `message_stop`),
 * `…/publishers/anthropic/models/count-tokens:rawPredict` (the model in the body), and Gemini on
 * `…/publishers/google/models/{m}:generateContent`, `:streamGenerateContent` and `:countTokens`.
 * A request Vertex would refuse is refused as Vertex does (400, Google's error shape), so a
 * gateway that maps calls wrongly fails its tests here.
 */
import {
  answerAnthropicCountTokens,
  answerAnthropicMessages,
} from './answer-anthropic-messages.js';
import { answerGeminiCountTokens, answerGeminiGenerate } from './answer-gemini-generate-content.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import { sendJson } from './write-fake-response.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const VERTEX_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(anthropic|google)\/models\/([^/:]+):([A-Za-z]+)$/;

export interface VertexPath {
  project: string;
  location: string;
  publisher: 'anthropic' | 'google';
  model: string;
  method: string;
}

export function readVertexPath(path: string): VertexPath | null {
  const match = VERTEX_PATH.exec(path);
  if (match === null) return null;
  return {
    project: decodeURIComponent(match[1] ?? ''),
    location: decodeURIComponent(match[2] ?? ''),
    publisher: match[3] === 'anthropic' ? 'anthropic' : 'google',
    model: decodeURIComponent(match[4] ?? ''),
    method: match[5] ?? '',
  };
}

async function refuse(call: FakeCall, message: string): Promise<void> {
  await sendJson(call.write, {
    status: 400,
    body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } },
  });
}

/** Why Vertex would refuse a Claude call's body; null when it takes it. */
function claudeBodyProblem(body: Record<string, unknown>, path: VertexPath): string | null {
  if (body.anthropic_version !== VERTEX_ANTHROPIC_VERSION) {
    return `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`;
  }
  if (path.model === 'count-tokens') {
    return typeof body.model === 'string' ? null : 'model: Field required';
  }
  if (body.model !== undefined) return 'model: Extra inputs are not permitted';
  const streamed = body.stream === true;
  if (streamed !== (path.method === 'streamRawPredict')) {
    return `stream: ${String(body.stream)} does not go with :${path.method}`;
  }
  return null;
}

async function answerClaude(call: FakeCall, path: VertexPath): Promise<void> {
  const body = bodyFields(call);
  const problem = claudeBodyProblem(body, path);
  if (problem !== null) {
    await refuse(call, problem);
    return;
  }
  if (path.model === 'count-tokens') {
    await answerAnthropicCountTokens(call);
    return;
  }
  // The answer functions read the model from the body, where a first-party call has it.
  const request = { ...call.request, body: { ...body, model: path.model } };
  await answerAnthropicMessages({ ...call, request }, { vertexEvent: true });
}

async function answerGemini(call: FakeCall, path: VertexPath): Promise<void> {
  if (path.method === 'countTokens') {
    await answerGeminiCountTokens(call, path.model);
    return;
  }
  const streamed = path.method === 'streamGenerateContent';
  await answerGeminiGenerate(call, { model: path.model, streamed });
}

const CLAUDE_METHODS = new Set(['rawPredict', 'streamRawPredict']);
const GEMINI_METHODS = new Set(['generateContent', 'streamGenerateContent', 'countTokens']);

/** The answer of a Vertex AI path; null when the path is not one the fake serves. */
export function routeVertexPath(path: string): ((call: FakeCall) => Promise<void>) | null {
  const vertex = readVertexPath(path);
  if (vertex === null) return null;
  if (vertex.publisher === 'anthropic') {
    if (!CLAUDE_METHODS.has(vertex.method)) return null;
    if (vertex.model === 'count-tokens' && vertex.method !== 'rawPredict') return null;
    return (call) => answerClaude(call, vertex);
  }
  if (!GEMINI_METHODS.has(vertex.method)) return null;
  return (call) => answerGemini(call, vertex);
}
