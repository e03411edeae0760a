/**
 * Gemini pass-through: the model is in the path (`/v1beta/models/{model}:{method}`). The model
 * segment is validated (`readPathModel`) and the upstream path is rebuilt from the validated name
 * (or the upstream's model override), never copied from the request; the body bytes always pass
 * untouched. Credential: x-goog-api-key.
 */
import { GatewayError } from '../../errors/gateway-error.js';
import { isValidModelName, readPathModel } from '../google/read-path-model.js';
import { withQuery, type RequestAdapter } from '../../spec/protocol-adapter.js';
import { isGoogleErrorBody, renderGoogleStreamError } from '../google/render-google-error.js';
import { outputAllowance } from '../../billing/estimate-request-cost.js';
import { readGeminiCandidateCount, readGeminiOutputCap } from '../google/read-gemini-output-cap.js';

const GEMINI_MODELS_PATH = '/v1beta/models/';

export const geminiGenerateContentAdapter: RequestAdapter = {
  upstreamFormat: () => 'gemini-generate-content',
  readModel: (context) => readPathModel(context.path)?.model ?? null,
  // Every candidate may use the whole cap.
  readOutputCap: (context) =>
    outputAllowance({
      cap: readGeminiOutputCap(context.json),
      answers: readGeminiCandidateCount(context.json),
      platform: 'Gemini',
    }),
  isStream: (context) => context.path.endsWith(':streamGenerateContent'),
  buildUpstream: (context, upstreamModel) => {
    const parts = readPathModel(context.path);
    if (parts === null) throw new GatewayError('TG_ROUTE_NOT_FOUND');
    const model = upstreamModel ?? parts.model;
    if (!isValidModelName(model)) {
      throw new GatewayError('TG_INTERNAL', {
        detail: "The upstream's model override is not a valid model name; ask an administrator.",
      });
    }
    const method = parts.method === '' ? '' : `:${parts.method}`;
    return {
      path: withQuery(`${GEMINI_MODELS_PATH}${model}${method}`, context.query),
      body: context.body,
    };
  },
  applyCredential: (headers, credential) => {
    headers['x-goog-api-key'] = credential;
  },
  isErrorBody: isGoogleErrorBody,
  // Only SSE streams can carry an error chunk; a JSON-array stream is just closed.
  streamError: (context, error) =>
    geminiGenerateContentAdapter.isStream(context) &&
    new URLSearchParams(context.query).get('alt') === 'sse'
      ? renderGoogleStreamError(error)
      : null,
};
