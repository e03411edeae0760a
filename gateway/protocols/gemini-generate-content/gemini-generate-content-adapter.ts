/**
 * Gemini pass-through: the model is in the path (`/v1beta/models/{model}:{method}`), so a model
 * override rewrites the path and the body bytes always pass untouched. Credential: x-goog-api-key.
 */
import { withQuery, type RequestAdapter } from '../../pipeline/request-adapter.js';
import { isGoogleErrorBody, renderGoogleStreamError } from '../../errors/render-google-error.js';

const modelPath = /^(.*\/models\/)([^/:]+)(:[A-Za-z]+)?$/;

export function splitModelPath(
  path: string,
): { prefix: string; model: string; method: string } | null {
  const match = modelPath.exec(path);
  if (match === null) return null;
  return {
    prefix: match[1] ?? '',
    model: decodeURIComponent(match[2] ?? ''),
    method: match[3] ?? '',
  };
}

export const geminiGenerateContentAdapter: RequestAdapter = {
  upstreamFormat: () => 'gemini-generate-content',
  readModel: (context) => splitModelPath(context.path)?.model ?? null,
  isStream: (context) => context.path.endsWith(':streamGenerateContent'),
  buildUpstream: (context, upstreamModel) => {
    const parts = splitModelPath(context.path);
    const path =
      parts === null || upstreamModel === null
        ? context.path
        : `${parts.prefix}${encodeURIComponent(upstreamModel)}${parts.method}`;
    return { path: withQuery(path, context.query), body: context.body };
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
