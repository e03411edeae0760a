/**
 * A fake Google Vertex AI server: the fake provider (`local/simulator/`), whose Vertex paths answer
 * Claude (`rawPredict`, `streamRawPredict` with Vertex's `vertex_event`, `count-tokens:rawPredict`)
 * and Gemini (`generateContent`, `streamGenerateContent`, `countTokens`) and refuse bodies Vertex
 * refuses, with the bearer token checked against the fake token issuer (401 UNAUTHENTICATED
 * otherwise). `setBehaviour({status: 429})` answers 429 RESOURCE_EXHAUSTED in Google's shape.
 */
import { startFakeProvider, type FakeProvider } from '../../local/simulator/start-fake-provider.js';
import type { FakeTokenIssuer } from './fake-google-token-endpoint.js';

export function vertexModelPath(options: {
  project: string;
  location: string;
  publisher: 'anthropic' | 'google';
  model: string;
  method: string;
}): string {
  const { project, location, publisher, model, method } = options;
  return `/v1/projects/${project}/locations/${location}/publishers/${publisher}/models/${model}:${method}`;
}

export function startFakeVertexAi(options: {
  issuer: FakeTokenIssuer;
  keepRequests?: number;
}): Promise<FakeProvider> {
  return startFakeProvider({
    keepRequests: options.keepRequests ?? 50,
    acceptsVertexToken: (token) => options.issuer.accepts(token),
  });
}
