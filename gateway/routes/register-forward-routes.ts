/**
 * The forwarded generation routes: pass-through (Anthropic Messages, OpenAI Responses and its
 * remote compaction, Gemini generateContent family) and translated (Chat Completions over Responses; the Antigravity
 * messages and v1beta routes over the Antigravity envelope).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import { forwardUpstream, type ForwardDependencies } from '../stages/forward/forward-upstream.js';
import { sendReply, type ReplyCall, type ReplyDependencies } from '../stages/reply/send-reply.js';
import type { RequestAdapter, UpstreamWireFormat } from '../spec/protocol-adapter.js';
import '../stages/request/route-config.js';
import { ROUTE_PROFILES, type RouteProfile } from '../stages/request/route-profile.js';
import { ADAPTERS, USAGE_READERS } from '../protocols/registry.js';

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
  /** The wire format the caller reads (after any translation). */
  replyFormat: UpstreamWireFormat;
}

const antigravityMessages: RouteProfile = {
  ...ROUTE_PROFILES.antigravityMessages,
  forwarded: true,
};
const antigravityGemini: RouteProfile = { ...ROUTE_PROFILES.antigravityGemini, forwarded: true };
/**
 * The Antigravity platform has no Responses API, so no compaction: Codex pointed at `/antigravity`
 * is told so in the OpenAI shape (after the key checks) instead of a bare 404.
 */
const antigravityCompact: RouteProfile = {
  ...ROUTE_PROFILES.antigravityMessages,
  errorShape: 'openai',
};

const forwardRoutes: ForwardRoute[] = [
  {
    path: '/v1/messages',
    profile: ROUTE_PROFILES.anthropicForward,
    adapter: ADAPTERS.anthropicMessages,
    replyFormat: 'anthropic-messages',
  },
  {
    path: '/v1/messages/count_tokens',
    profile: ROUTE_PROFILES.anthropicForward,
    adapter: ADAPTERS.anthropicMessages,
    replyFormat: 'anthropic-messages',
  },
  {
    path: '/v1/responses',
    profile: ROUTE_PROFILES.openaiForward,
    adapter: ADAPTERS.openAIResponses,
    replyFormat: 'openai-responses',
  },
  {
    path: '/v1/responses/compact',
    profile: ROUTE_PROFILES.openaiForward,
    adapter: ADAPTERS.openAIResponsesCompact,
    replyFormat: 'openai-responses',
  },
  {
    path: '/v1/chat/completions',
    profile: ROUTE_PROFILES.openaiForward,
    adapter: ADAPTERS.openAIChat,
    replyFormat: 'openai-chat',
  },
  {
    path: '/v1beta/models/*',
    profile: ROUTE_PROFILES.geminiForward,
    adapter: ADAPTERS.geminiGenerateContent,
    replyFormat: 'gemini-generate-content',
  },
  {
    path: '/antigravity/v1/messages',
    profile: antigravityMessages,
    adapter: ADAPTERS.antigravityMessages,
    replyFormat: 'anthropic-messages',
  },
  {
    path: '/antigravity/v1/messages/count_tokens',
    profile: antigravityMessages,
    adapter: ADAPTERS.antigravityMessages,
    replyFormat: 'anthropic-messages',
  },
  {
    path: '/antigravity/v1beta/models/*',
    profile: antigravityGemini,
    adapter: ADAPTERS.antigravityGemini,
    replyFormat: 'gemini-generate-content',
  },
];

/** The route's handler: the forward stage, then the reply stage, from the admit stage's result. */
function forwardHandler(
  dependencies: ForwardDependencies & ReplyDependencies,
  route: ForwardRoute,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const record = request.tollgate;
    const admitted = record.admitted;
    if (admitted === null) throw new GatewayError('TG_INTERNAL', { detail: 'not admitted' });
    const { adapter, replyFormat } = route;
    const call: ReplyCall = { request, reply, record, admitted, adapter, replyFormat };
    return sendReply(dependencies, call, await forwardUpstream(dependencies, call));
  };
}

/** The forward and reply stages' dependencies, less the protocol tables supplied here. */
export type ForwardRouteDependencies = Omit<
  ForwardDependencies & ReplyDependencies,
  'usageReaders'
>;

export function registerForwardRoutes(
  app: FastifyInstance,
  routeDependencies: ForwardRouteDependencies,
): void {
  const dependencies: ForwardDependencies & ReplyDependencies = {
    ...routeDependencies,
    usageReaders: USAGE_READERS,
  };
  for (const route of forwardRoutes) {
    app.post(
      route.path,
      {
        config: { profile: route.profile, adapter: route.adapter },
        ...(route.path.endsWith('*') ? { onRequest: requireGeminiMethod } : {}),
      },
      forwardHandler(dependencies, route),
    );
  }
  app.post('/antigravity/v1/responses/compact', { config: { profile: antigravityCompact } }, () =>
    Promise.reject(new GatewayError('TG_COMPACTION_UNSUPPORTED')),
  );
}
