/**
 * `/antigravity/v1/messages` and `/count_tokens`: Anthropic Messages translated to the Antigravity
 * envelope (`:generateContent`, `:streamGenerateContent?alt=sse`, `:countTokens`) and
 * the reply translated back. The envelope names the Upstream's Antigravity project, so the adapter is
 * bound per upstream (`forUpstream`). Credential: a Google OAuth access token as Bearer.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../errors/gateway-error.js';
import {
  asksForStream,
  jsonStringField,
  type ForwardContext,
  type RequestAdapter,
  type UpstreamRequestParts,
} from '../../spec/protocol-adapter.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import { convertCountTokensRequest } from './messages-to-antigravity/convert-count-tokens.js';
import { convertMessagesRequest } from './messages-to-antigravity/convert-messages-request.js';
import { readMessagesOutputCap } from '../anthropic-messages/read-messages-output-cap.js';
import {
  isAnthropicErrorBody,
  renderAnthropicStreamError,
} from '../anthropic-messages/render-anthropic-error.js';
import { translateMessagesReply } from './translate-antigravity-reply.js';

const isCountTokens = (context: ForwardContext): boolean => context.path.endsWith('/count_tokens');

const isStream = (context: ForwardContext): boolean =>
  !isCountTokens(context) && asksForStream(context);

/** The body with `model` replaced by the upstream model (the translators read it from there). */
function withModel(context: ForwardContext, upstreamModel: string | null): unknown {
  if (upstreamModel === null || typeof context.json !== 'object' || context.json === null) {
    return context.json;
  }
  return { ...(context.json as Record<string, unknown>), model: upstreamModel };
}

function refuse(refusal: { param: string | null; message: string }): GatewayError {
  const where = refusal.param === null ? '' : `${refusal.param}: `;
  return new GatewayError('TG_BAD_REQUEST', { message: `${where}${refusal.message}` });
}

function buildAntigravityUpstream(
  context: ForwardContext,
  target: { upstreamModel: string | null; projectId: string },
): UpstreamRequestParts {
  const body = withModel(context, target.upstreamModel);
  if (isCountTokens(context)) {
    const converted = convertCountTokensRequest(body);
    if (!converted.ok) throw refuse(converted);
    return { path: '/v1internal:countTokens', body: Buffer.from(JSON.stringify(converted.body)) };
  }
  const requestId = `agent-${randomUUID()}`;
  const converted = convertMessagesRequest(body, { projectId: target.projectId, requestId });
  if (!converted.ok) throw refuse(converted);
  return {
    path: converted.stream
      ? '/v1internal:streamGenerateContent?alt=sse'
      : '/v1internal:generateContent',
    body: Buffer.from(JSON.stringify(converted.envelope)),
  };
}

function adapterFor(projectId: string): RequestAdapter {
  return {
    upstreamFormat: () => 'antigravity',
    readModel: (context) => jsonStringField(context.json, 'model'),
    readOutputCap: (context) => readMessagesOutputCap(context.json),
    isStream,
    buildUpstream: (context, upstreamModel) =>
      buildAntigravityUpstream(context, { upstreamModel, projectId }),
    translateReply: (context, reply) =>
      translateMessagesReply({
        ...reply,
        kind: isCountTokens(context) ? 'count-tokens' : 'message',
        model: jsonStringField(context.json, 'model') ?? '',
        messageId: `msg_${randomUUID().replaceAll('-', '')}`,
      }),
    applyCredential: (headers, credential) => {
      headers.authorization = `Bearer ${credential}`;
    },
    isErrorBody: isAnthropicErrorBody,
    streamError: (context, error) => (isStream(context) ? renderAnthropicStreamError(error) : null),
    forUpstream: (upstream: ResolvedUpstream) => adapterFor(upstream.oauth?.projectID ?? ''),
  };
}

/** Unbound: an empty project until the forward stage binds the chosen upstream. */
export const antigravityMessagesAdapter: RequestAdapter = adapterFor('');
