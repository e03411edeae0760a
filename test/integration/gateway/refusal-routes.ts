/** The platform paths and header variants the refusal suite runs every rule against. */
import type { InjectOptions } from 'fastify';
import type { Platform } from '../../../store/store.js';

export type Shape = 'anthropic' | 'openai' | 'google';

export interface RouteCase {
  name: string;
  platforms: readonly Platform[];
  shape: Shape;
  forwarded: boolean;
  okStatus: number;
  /** The code of a valid key's answer when the gateway answers itself with an error. */
  okCode?: string;
  request: (key: string | null) => InjectOptions;
}

const anthropicBody = {
  model: 'claude-sonnet-4-6',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'hi' }],
};
const openaiBody = { model: 'gpt-5', input: 'hi' };
const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

function withKey(header: string, key: string | null, prefix = ''): Record<string, string> {
  return key === null ? {} : { [header]: `${prefix}${key}` };
}

const post = (url: string, body: object, headers: Record<string, string>): InjectOptions => ({
  method: 'POST',
  url,
  headers: { 'content-type': 'application/json', ...headers },
  payload: JSON.stringify(body),
});

export const routes: RouteCase[] = [
  {
    name: 'POST /v1/messages x-api-key',
    platforms: ['Anthropic'],
    shape: 'anthropic',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post('/v1/messages', anthropicBody, {
        'anthropic-version': '2023-06-01',
        ...withKey('x-api-key', key),
      }),
  },
  {
    name: 'POST /v1/messages?beta=true bearer',
    platforms: ['Anthropic'],
    shape: 'anthropic',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post('/v1/messages?beta=true', anthropicBody, {
        'anthropic-version': '2026-10-21',
        ...withKey('authorization', key, 'Bearer '),
      }),
  },
  {
    name: 'POST /v1/messages/count_tokens x-api-key',
    platforms: ['Anthropic'],
    shape: 'anthropic',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post(
        '/v1/messages/count_tokens',
        { model: anthropicBody.model, messages: anthropicBody.messages },
        withKey('x-api-key', key),
      ),
  },
  {
    name: 'GET /v1/models anthropic x-api-key',
    platforms: ['Anthropic'],
    shape: 'anthropic',
    forwarded: false,
    okStatus: 200,
    request: (key) => ({
      method: 'GET',
      url: '/v1/models',
      headers: { 'anthropic-version': '2023-06-01', ...withKey('x-api-key', key) },
    }),
  },
  {
    name: 'POST /v1/responses bearer',
    platforms: ['OpenAI'],
    shape: 'openai',
    forwarded: true,
    okStatus: 200,
    request: (key) => post('/v1/responses', openaiBody, withKey('authorization', key, 'Bearer ')),
  },
  {
    name: 'POST /v1/responses/compact bearer',
    platforms: ['OpenAI'],
    shape: 'openai',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post('/v1/responses/compact', openaiBody, withKey('authorization', key, 'Bearer ')),
  },
  {
    name: 'POST /antigravity/v1/responses/compact bearer (no compaction there)',
    platforms: ['Antigravity'],
    shape: 'openai',
    forwarded: false,
    okStatus: 501,
    okCode: 'TG_COMPACTION_UNSUPPORTED',
    request: (key) =>
      post(
        '/antigravity/v1/responses/compact',
        openaiBody,
        withKey('authorization', key, 'Bearer '),
      ),
  },
  {
    name: 'GET /v1/models openai bearer',
    platforms: ['OpenAI'],
    shape: 'openai',
    forwarded: false,
    okStatus: 200,
    request: (key) => ({
      method: 'GET',
      url: '/v1/models',
      headers: withKey('authorization', key, 'Bearer '),
    }),
  },
  {
    name: 'POST :generateContent x-goog-api-key',
    platforms: ['Gemini'],
    shape: 'google',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post(
        '/v1beta/models/gemini-2.5-flash:generateContent',
        geminiBody,
        withKey('x-goog-api-key', key),
      ),
  },
  {
    name: 'POST :streamGenerateContent?alt=sse&key=',
    platforms: ['Gemini'],
    shape: 'google',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post(
        `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse${key === null ? '' : `&key=${key}`}`,
        geminiBody,
        {},
      ),
  },
  {
    name: 'POST :countTokens x-goog-api-key',
    platforms: ['Gemini'],
    shape: 'google',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post(
        '/v1beta/models/gemini-2.5-flash:countTokens',
        geminiBody,
        withKey('x-goog-api-key', key),
      ),
  },
  {
    name: 'GET /v1beta/models ?key=',
    platforms: ['Gemini'],
    shape: 'google',
    forwarded: false,
    okStatus: 200,
    request: (key) => ({
      method: 'GET',
      url: key === null ? '/v1beta/models' : `/v1beta/models?key=${key}`,
    }),
  },
  {
    name: 'GET /antigravity/v1/models bearer',
    platforms: ['Antigravity'],
    shape: 'anthropic',
    forwarded: false,
    okStatus: 200,
    request: (key) => ({
      method: 'GET',
      url: '/antigravity/v1/models',
      headers: withKey('authorization', key, 'Bearer '),
    }),
  },
  {
    name: 'GET /antigravity/models bearer',
    platforms: ['Antigravity'],
    shape: 'openai',
    forwarded: false,
    okStatus: 200,
    request: (key) => ({
      method: 'GET',
      url: '/antigravity/models',
      headers: withKey('authorization', key, 'Bearer '),
    }),
  },
  {
    name: 'POST /antigravity/v1/messages x-api-key',
    platforms: ['Antigravity'],
    shape: 'anthropic',
    forwarded: true,
    okStatus: 200,
    request: (key) => post('/antigravity/v1/messages', anthropicBody, withKey('x-api-key', key)),
  },
  {
    name: 'POST /antigravity/v1beta :generateContent x-goog-api-key',
    platforms: ['Antigravity'],
    shape: 'google',
    forwarded: true,
    okStatus: 200,
    request: (key) =>
      post(
        '/antigravity/v1beta/models/gemini-2.5-pro:generateContent',
        geminiBody,
        withKey('x-goog-api-key', key),
      ),
  },
];
