/** OpenAI Responses pass-through: model in the JSON body, credential as a Bearer token. */
import {
  asksForStream,
  bodyWithModel,
  jsonStringField,
  withQuery,
  type RequestAdapter,
} from '../../spec/protocol-adapter.js';
import { isOpenAIErrorBody, renderOpenAIResponsesStreamError } from './render-openai-error.js';
import { readResponsesOutputCap } from './read-responses-output-cap.js';

export const openAIResponsesAdapter: RequestAdapter = {
  upstreamFormat: () => 'openai-responses',
  readModel: (context) => jsonStringField(context.json, 'model'),
  readOutputCap: (context) => readResponsesOutputCap(context.json),
  isStream: asksForStream,
  buildUpstream: (context, upstreamModel) => ({
    path: withQuery(context.path, context.query),
    body: bodyWithModel(context, upstreamModel),
  }),
  applyCredential: (headers, credential) => {
    headers.authorization = `Bearer ${credential}`;
  },
  isErrorBody: isOpenAIErrorBody,
  streamError: (context, error) =>
    openAIResponsesAdapter.isStream(context) ? renderOpenAIResponsesStreamError(error) : null,
};
