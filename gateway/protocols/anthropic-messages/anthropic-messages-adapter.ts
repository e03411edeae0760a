/** Anthropic Messages pass-through: model in the JSON body, credential in `x-api-key`. */
import {
  bodyWithModel,
  jsonStringField,
  withQuery,
  type RequestAdapter,
} from '../../pipeline/request-adapter.js';
import {
  isAnthropicErrorBody,
  renderAnthropicStreamError,
} from '../../errors/render-anthropic-error.js';

export const anthropicMessagesAdapter: RequestAdapter = {
  upstreamFormat: () => 'anthropic-messages',
  readModel: (context) => jsonStringField(context.json, 'model'),
  isStream: (context) =>
    typeof context.json === 'object' &&
    context.json !== null &&
    (context.json as { stream?: unknown }).stream === true,
  buildUpstream: (context, upstreamModel) => ({
    path: withQuery(context.path, context.query),
    body: bodyWithModel(context, upstreamModel),
  }),
  applyCredential: (headers, credential) => {
    headers['x-api-key'] = credential;
  },
  isErrorBody: isAnthropicErrorBody,
  streamError: (context, error) =>
    anthropicMessagesAdapter.isStream(context) ? renderAnthropicStreamError(error) : null,
};
