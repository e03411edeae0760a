/** Anthropic Messages pass-through: model in the JSON body, credential in `x-api-key`. */
import {
  asksForStream,
  bodyWithModel,
  jsonStringField,
  withQuery,
  type RequestAdapter,
} from '../../spec/protocol-adapter.js';
import { isAnthropicErrorBody, renderAnthropicStreamError } from './render-anthropic-error.js';
import { readMessagesOutputCap } from './read-messages-output-cap.js';

export const anthropicMessagesAdapter: RequestAdapter = {
  upstreamFormat: () => 'anthropic-messages',
  readModel: (context) => jsonStringField(context.json, 'model'),
  readOutputCap: (context) => readMessagesOutputCap(context.json),
  isStream: asksForStream,
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
