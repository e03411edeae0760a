/**
 * `/antigravity/v1beta/models/{model}:generateContent|:streamGenerateContent|:countTokens`: the
 * Gemini body wrapped into the Antigravity envelope (bound per upstream for its project)
 * and the reply unwrapped. The path's model is validated (`readPathModel`) before it is checked,
 * priced or put into the envelope. Upstream streams are always SSE; a client without `alt=sse` gets the
 * chunks as one JSON array, as the Gemini API sends them. Credential: Google OAuth Bearer.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../errors/gateway-error.js';
import type {
  ForwardContext,
  RequestAdapter,
  UpstreamRequestParts,
} from '../../spec/protocol-adapter.js';
import { readPathModel } from '../google/read-path-model.js';
import type { ResolvedUpstream } from '../../spec/resolved-upstream.js';
import { outputAllowance } from '../../billing/estimate-request-cost.js';
import { readGeminiCandidateCount, readGeminiOutputCap } from '../google/read-gemini-output-cap.js';
import {
  wrapGeminiCountTokens,
  wrapGeminiRequest,
} from './gemini-to-antigravity/wrap-gemini-request.js';
import { isGoogleErrorBody, renderGoogleStreamError } from '../google/render-google-error.js';
import { translateGeminiReply } from './translate-antigravity-reply.js';

function splitPath(context: ForwardContext): { model: string; method: string } | null {
  const parts = readPathModel(context.path);
  return parts === null || parts.method === '' ? null : parts;
}

const isStream = (context: ForwardContext): boolean =>
  splitPath(context)?.method === 'streamGenerateContent';

const wantsSse = (context: ForwardContext): boolean =>
  new URLSearchParams(context.query).get('alt') === 'sse';

function buildAntigravityUpstream(
  context: ForwardContext,
  target: { upstreamModel: string | null; projectId: string },
): UpstreamRequestParts {
  const parts = splitPath(context);
  if (parts === null) throw new GatewayError('TG_ROUTE_NOT_FOUND');
  const model = target.upstreamModel ?? parts.model;
  if (parts.method === 'countTokens') {
    const wrapped = wrapGeminiCountTokens(context.json, model);
    if (!wrapped.ok) throw new GatewayError('TG_BAD_REQUEST', { message: wrapped.message });
    return { path: '/v1internal:countTokens', body: Buffer.from(JSON.stringify(wrapped.body)) };
  }
  const wrapped = wrapGeminiRequest(context.json, {
    model,
    projectId: target.projectId,
    requestId: `agent-${randomUUID()}`,
  });
  if (!wrapped.ok) throw new GatewayError('TG_BAD_REQUEST', { message: wrapped.message });
  return {
    path:
      parts.method === 'streamGenerateContent'
        ? '/v1internal:streamGenerateContent?alt=sse'
        : '/v1internal:generateContent',
    body: Buffer.from(JSON.stringify(wrapped.envelope)),
  };
}

function adapterFor(projectId: string): RequestAdapter {
  return {
    upstreamFormat: () => 'antigravity',
    readModel: (context) => splitPath(context)?.model ?? null,
    readOutputCap: (context) =>
      outputAllowance({
        cap: readGeminiOutputCap(context.json),
        answers: readGeminiCandidateCount(context.json),
        platform: 'Antigravity',
      }),
    isStream,
    buildUpstream: (context, upstreamModel) =>
      buildAntigravityUpstream(context, { upstreamModel, projectId }),
    translateReply: (context, reply) => translateGeminiReply({ ...reply, sse: wantsSse(context) }),
    applyCredential: (headers, credential) => {
      headers.authorization = `Bearer ${credential}`;
    },
    isErrorBody: isGoogleErrorBody,
    streamError: (context, error) =>
      isStream(context) && wantsSse(context) ? renderGoogleStreamError(error) : null,
    forUpstream: (upstream: ResolvedUpstream) => adapterFor(upstream.oauth?.projectID ?? ''),
  };
}

/** Unbound: an empty project until the forward stage binds the chosen upstream. */
export const antigravityGeminiAdapter: RequestAdapter = adapterFor('');
