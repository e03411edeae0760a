import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/gateway-error.js';
import {
  mapAnthropicCall,
  mapGeminiCall,
  vertexAddress,
  VERTEX_ANTHROPIC_VERSION,
} from './map-vertex-call.js';

const regional = { project: 'acme-ml', location: 'us-east5', endpoint: null };
const global = { project: 'acme-ml', location: 'global', endpoint: null };

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

function codeOf(run: () => unknown): string | null {
  try {
    run();
  } catch (error) {
    return isGatewayError(error) ? error.code : 'not a GatewayError';
  }
  return null;
}

describe('Vertex AI addresses', () => {
  it('uses the regional host, the global host, or the endpoint', () => {
    expect(vertexAddress(regional)).toEqual({
      origin: 'https://us-east5-aiplatform.googleapis.com',
      basePath: '',
    });
    expect(vertexAddress(global)).toEqual({
      origin: 'https://aiplatform.googleapis.com',
      basePath: '',
    });
    expect(vertexAddress({ ...regional, endpoint: 'http://127.0.0.1:8080/' })).toEqual({
      origin: 'http://127.0.0.1:8080',
      basePath: '',
    });
    expect(vertexAddress({ ...regional, endpoint: 'vertex.internal.example/proxy/' })).toEqual({
      origin: 'https://vertex.internal.example',
      basePath: '/proxy',
    });
  });
});

describe('Claude on Vertex AI', () => {
  const body = json({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [], stream: true });

  it('streams on :streamRawPredict, the model in the path, stream kept, anthropic_version set', () => {
    const parts = mapAnthropicCall(
      { path: '/v1/messages?beta=true', body, stream: true, model: 'claude-sonnet-4-5@20250929' },
      regional,
    );
    expect(parts.path).toBe(
      '/v1/projects/acme-ml/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    );
    expect(JSON.parse(parts.body.toString())).toEqual({
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
      max_tokens: 64,
      messages: [],
      stream: true,
    });
  });

  it('keeps the colon of a domain-scoped project id', () => {
    const parts = mapAnthropicCall(
      { path: '/v1/messages', body: json({ model: 'm' }), stream: false, model: null },
      { ...regional, project: 'example.com:acme' },
    );
    expect(parts.path).toBe(
      '/v1/projects/example.com:acme/locations/us-east5/publishers/anthropic/models/m:rawPredict',
    );
  });

  it('answers on :rawPredict when not streamed, on the global location too', () => {
    const parts = mapAnthropicCall(
      {
        path: '/v1/messages',
        body: json({ model: 'claude-haiku-4-5', anthropic_version: 'x' }),
        stream: false,
        model: null,
      },
      global,
    );
    expect(parts.path).toBe(
      '/v1/projects/acme-ml/locations/global/publishers/anthropic/models/claude-haiku-4-5:rawPredict',
    );
    expect(JSON.parse(parts.body.toString())).toEqual({
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
    });
  });

  it('counts tokens on count-tokens:rawPredict with the model kept in the body', () => {
    const parts = mapAnthropicCall(
      {
        path: '/v1/messages/count_tokens?beta=true',
        body: json({ model: 'claude-sonnet-4-5', messages: [] }),
        stream: false,
        model: 'claude-sonnet-4-5',
      },
      regional,
    );
    expect(parts.path).toBe(
      '/v1/projects/acme-ml/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict',
    );
    expect(JSON.parse(parts.body.toString())).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [],
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
    });
  });

  it('refuses a model that is not a plain model id, and a body that is not an object', () => {
    const call = { path: '/v1/messages', stream: false, model: null };
    expect(
      codeOf(() => mapAnthropicCall({ ...call, body: json({ model: '../x' }) }, regional)),
    ).toBe('TG_MODEL_NAME_INVALID');
    expect(codeOf(() => mapAnthropicCall({ ...call, body: json({}) }, regional))).toBe(
      'TG_MODEL_NAME_INVALID',
    );
    expect(codeOf(() => mapAnthropicCall({ ...call, body: json([1]) }, regional))).toBe(
      'TG_BAD_REQUEST',
    );
    expect(
      codeOf(() => mapAnthropicCall({ ...call, body: Buffer.from('{'), model: 'm' }, regional)),
    ).toBe('TG_BAD_REQUEST');
  });
});

describe('Gemini on Vertex AI', () => {
  const body = json({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

  it.each([
    ['generateContent', '', ''],
    ['streamGenerateContent', '?alt=sse', '?alt=sse'],
    ['streamGenerateContent', '', ''],
    ['countTokens', '?key=leak&alt=json', '?alt=json'],
  ])('maps :%s%s, the body untouched', (method, query, expected) => {
    const parts = mapGeminiCall(
      { path: `/v1beta/models/gemini-2.5-flash:${method}${query}`, body, model: 'gemini-2.5-pro' },
      regional,
    );
    expect(parts.path).toBe(
      `/v1/projects/acme-ml/locations/us-east5/publishers/google/models/gemini-2.5-pro:${method}${expected}`,
    );
    expect(parts.body).toBe(body);
  });

  it('takes the model from the path when no override applies', () => {
    const parts = mapGeminiCall(
      { path: '/v1beta/models/gemini-2.5-flash:generateContent', body, model: null },
      global,
    );
    expect(parts.path).toBe(
      '/v1/projects/acme-ml/locations/global/publishers/google/models/gemini-2.5-flash:generateContent',
    );
  });

  it('refuses a path it does not know', () => {
    expect(
      codeOf(() =>
        mapGeminiCall({ path: '/v1beta/models/m:embedContent', body, model: null }, regional),
      ),
    ).toBe('TG_ROUTE_NOT_FOUND');
  });
});
