/**
 * Which answer a request gets, by path: Anthropic, OpenAI (Responses, its remote compaction in
 * both forms, Chat Completions), Gemini, Antigravity, Google Vertex AI (Claude and Gemini), AWS
 * Bedrock (Claude), the OAuth token endpoint and the GKE metadata server's token. `/v1/models`
 * answers in Anthropic's shape when the caller sends `anthropic-version` or `x-api-key`, else in
 * OpenAI's (wire-formats.md 7).
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  answerAnthropicCountTokens,
  answerAnthropicMessages,
  answerAnthropicModels,
} from './answer-anthropic-messages.js';
import { answerAntigravity } from './answer-antigravity.js';
import { routeBedrockRequest } from './answer-aws-bedrock.js';
import {
  answerGeminiCountTokens,
  answerGeminiGenerate,
  answerGeminiModels,
} from './answer-gemini-generate-content.js';
import { answerOpenAIChat, answerOpenAIModels } from './answer-openai-chat.js';
import { answerOpenAIResponses } from './answer-openai-responses.js';
import {
  answerCompactionTrigger,
  answerResponsesCompact,
  endsWithCompactionTrigger,
} from './answer-responses-compaction.js';
import { routeVertexPath } from './answer-vertex-ai.js';
import { bodyFields } from './fake-call.js';
import type { FakeRoute } from './fake-route.js';

const GEMINI_METHOD =
  /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;
const GEMINI_MODEL = /^\/v1beta\/models\/([^/:]+)$/;
const ANTIGRAVITY_METHOD = /^\/v1internal:(generateContent|streamGenerateContent|countTokens)$/;
const MODEL_ID = /^\/v1\/models\/([^/]+)$/;
/** The GKE metadata server's token path (Workload Identity). */
export const METADATA_TOKEN_PATH = '/computeMetadata/v1/instance/service-accounts/default/token';

function modelsRoute(headers: IncomingHttpHeaders, id?: string): FakeRoute {
  const anthropic =
    headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
  return anthropic
    ? { platform: 'anthropic', answer: (call) => answerAnthropicModels(call, id) }
    : { platform: 'openai', answer: (call) => answerOpenAIModels(call, id) };
}

export function routeFakeRequest(request: {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}): FakeRoute | null {
  const { method, path, headers } = request;
  if (method === 'GET') {
    if (path === '/v1/models') return modelsRoute(headers);
    if (path === METADATA_TOKEN_PATH) return { platform: 'oauth', answer: () => Promise.resolve() };
    const modelId = MODEL_ID.exec(path)?.[1];
    if (modelId !== undefined) return modelsRoute(headers, decodeURIComponent(modelId));
    if (path === '/v1beta/models')
      return { platform: 'google', answer: (call) => answerGeminiModels(call) };
    const geminiModel = GEMINI_MODEL.exec(path)?.[1];
    if (geminiModel !== undefined) {
      return { platform: 'google', answer: (call) => answerGeminiModels(call, geminiModel) };
    }
    return null;
  }
  if (method !== 'POST') return null;
  if (path === '/v1/messages') return { platform: 'anthropic', answer: answerAnthropicMessages };
  if (path === '/v1/messages/count_tokens') {
    return { platform: 'anthropic', answer: answerAnthropicCountTokens };
  }
  if (path === '/v1/responses') {
    return {
      platform: 'openai',
      answer: (call) =>
        endsWithCompactionTrigger(bodyFields(call).input)
          ? answerCompactionTrigger(call)
          : answerOpenAIResponses(call),
    };
  }
  if (path === '/v1/responses/compact') {
    return { platform: 'openai', answer: answerResponsesCompact };
  }
  if (path === '/v1/chat/completions') return { platform: 'openai', answer: answerOpenAIChat };
  const gemini = GEMINI_METHOD.exec(path);
  if (gemini !== null) {
    const model = decodeURIComponent(gemini[1] ?? '');
    const method = gemini[2];
    if (method === 'countTokens') {
      return { platform: 'google', answer: (call) => answerGeminiCountTokens(call, model) };
    }
    const streamed = method === 'streamGenerateContent';
    return {
      platform: 'google',
      answer: (call) => answerGeminiGenerate(call, { model, streamed }),
    };
  }
  const antigravityMethod = ANTIGRAVITY_METHOD.exec(path)?.[1];
  if (antigravityMethod !== undefined) {
    return {
      platform: 'antigravity',
      answer: (call) => answerAntigravity(call, antigravityMethod),
    };
  }
  const vertex = routeVertexPath(path);
  if (vertex !== null) return { platform: 'vertex', answer: vertex };
  if (path === '/oauth2/token') return { platform: 'oauth', answer: () => Promise.resolve() };
  return routeBedrockRequest(path);
}
