/**
 * The pass-through generation routes (Anthropic Messages, OpenAI Responses, Gemini
 * generateContent family) and the routes answered "not available yet" (501) in their protocol.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import { forwardRequest, type ForwardDependencies } from '../pipeline/forward-request.js';
import type { RequestAdapter } from '../pipeline/request-adapter.js';
import '../pipeline/route-config.js';
import { ROUTE_PROFILES, type RouteProfile } from '../pipeline/route-profile.js';
import { anthropicMessagesAdapter } from '../protocols/anthropic-messages/anthropic-messages-adapter.js';
import { geminiGenerateContentAdapter } from '../protocols/gemini-generate-content/gemini-generate-content-adapter.js';
import { openAIResponsesAdapter } from '../protocols/openai-responses/openai-responses-adapter.js';

const geminiMethods =
  /^\/(antigravity\/)?v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent|countTokens)$/;

/** Unknown Gemini methods are unknown routes, before any key check. */
function requireGeminiMethod(request: FastifyRequest): Promise<void> {
  const path = request.url.split('?')[0] ?? '';
  if (!geminiMethods.test(path)) return Promise.reject(new GatewayError('TG_ROUTE_NOT_FOUND'));
  return Promise.resolve();
}

interface ForwardRoute {
  path: string;
  profile: RouteProfile;
  adapter: RequestAdapter;
}

const forwardRoutes: ForwardRoute[] = [
  {
    path: '/v1/messages',
    profile: ROUTE_PROFILES.anthropicForward,
    adapter: anthropicMessagesAdapter,
  },
  {
    path: '/v1/messages/count_tokens',
    profile: ROUTE_PROFILES.anthropicForward,
    adapter: anthropicMessagesAdapter,
  },
  { path: '/v1/responses', profile: ROUTE_PROFILES.openaiForward, adapter: openAIResponsesAdapter },
  {
    path: '/v1beta/models/*',
    profile: ROUTE_PROFILES.geminiForward,
    adapter: geminiGenerateContentAdapter,
  },
];

const unavailableRoutes: { path: string; profile: RouteProfile }[] = [
  { path: '/v1/chat/completions', profile: ROUTE_PROFILES.openaiUnavailable },
  { path: '/antigravity/v1/messages', profile: ROUTE_PROFILES.antigravityMessages },
  { path: '/antigravity/v1/messages/count_tokens', profile: ROUTE_PROFILES.antigravityMessages },
  { path: '/antigravity/v1beta/models/*', profile: ROUTE_PROFILES.antigravityGemini },
];

export function registerForwardRoutes(
  app: FastifyInstance,
  dependencies: ForwardDependencies,
): void {
  for (const route of forwardRoutes) {
    app.post(
      route.path,
      {
        config: { profile: route.profile, adapter: route.adapter },
        ...(route.path.endsWith('*') ? { onRequest: requireGeminiMethod } : {}),
      },
      (request, reply) => {
        const state = request.tollgate;
        const context = state.context;
        if (context === null)
          throw new GatewayError('TG_INTERNAL', { detail: 'no request context' });
        return forwardRequest(dependencies, {
          request,
          reply,
          state,
          adapter: route.adapter,
          context,
        });
      },
    );
  }
  for (const route of unavailableRoutes) {
    app.post(
      route.path,
      {
        config: { profile: route.profile },
        ...(route.path.endsWith('*') ? { onRequest: requireGeminiMethod } : {}),
      },
      () => Promise.reject(new GatewayError('TG_NOT_IMPLEMENTED')),
    );
  }
  // Codex probes `/v1/responses` over WebSocket first; refuse fast so it falls back to HTTP.
  app.get('/v1/responses', () => Promise.reject(new GatewayError('TG_WEBSOCKET_UNSUPPORTED')));
}
