import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unwrapAntigravityReply, unwrapAntigravityStreamLine } from './unwrap-antigravity-reply.js';
import { wrapGeminiCountTokens, wrapGeminiRequest } from './wrap-gemini-request.js';

const body = {
  contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
  systemInstruction: { role: 'user', parts: [{ text: 'Be terse.' }] },
  generationConfig: {
    temperature: 1,
    thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
  },
  toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
};

describe('wrapGeminiRequest', () => {
  it('wraps the body untouched with the model from the path', () => {
    const options = { model: 'models/gemini-2.5-flash', projectId: 'p', requestId: 'agent-1' };
    expect(wrapGeminiRequest(body, options)).toEqual({
      ok: true,
      envelope: {
        project: 'p',
        requestId: 'agent-1',
        userAgent: 'antigravity',
        requestType: 'agent',
        model: 'gemini-2.5-flash',
        request: body,
      },
    });
  });

  it('marks requests with a googleSearch tool as web_search', () => {
    const withSearch = { ...body, tools: [{ googleSearch: {} }] };
    const result = wrapGeminiRequest(withSearch, {
      model: 'gemini-2.5-flash',
      projectId: 'p',
      requestId: 'r',
    });
    expect(result.ok && result.envelope.requestType).toBe('web_search');
  });

  it('refuses a body without contents', () => {
    expect(wrapGeminiRequest({}, { model: 'm', projectId: 'p', requestId: 'r' })).toMatchObject({
      ok: false,
    });
  });

  it('wraps countTokens in both body forms', () => {
    const contents = body.contents;
    expect(wrapGeminiCountTokens({ contents }, 'gemini-2.5-pro')).toEqual({
      ok: true,
      body: { request: { contents, model: 'models/gemini-2.5-pro' } },
    });
    const long = { generateContentRequest: { model: 'models/x', contents, tools: [] } };
    expect(wrapGeminiCountTokens(long, 'models/gemini-2.5-pro')).toEqual({
      ok: true,
      body: { request: { contents, tools: [], model: 'models/gemini-2.5-pro' } },
    });
    expect(wrapGeminiCountTokens({}, 'm')).toMatchObject({ ok: false });
  });
});

describe('unwrapAntigravityReply', () => {
  it('unwraps response and uses traceId as responseId', () => {
    const reply = {
      response: { candidates: [], usageMetadata: { promptTokenCount: 1 } },
      traceId: 't',
    };
    expect(unwrapAntigravityReply(reply)).toEqual({
      candidates: [],
      usageMetadata: { promptTokenCount: 1 },
      responseId: 't',
    });
  });

  it('returns error bodies unchanged', () => {
    const error = { error: { code: 429, message: 'x', status: 'RESOURCE_EXHAUSTED' } };
    expect(unwrapAntigravityReply(error)).toBe(error);
  });
});

describe('unwrapAntigravityStreamLine', () => {
  it('rewrites data lines of a recorded stream and leaves every other line alone', () => {
    const text = readFileSync(
      new URL('./__fixtures__/wrapped-stream.chunks.txt', import.meta.url),
      'utf8',
    );
    const lines = text.split('\n').map(unwrapAntigravityStreamLine);
    expect(lines[0]).toBe(
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"18°C"}]},"index":0}],"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":3,"totalTokenCount":123},"modelVersion":"gemini-2.5-flash","responseId":"trace-1"}',
    );
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe(': keep-alive comment');
    expect(JSON.parse(lines[3]!.slice(6))).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      responseId: 'own-id',
    });
    expect(lines[5]).toBe(
      'data: {"error":{"code":503,"message":"Overloaded","status":"UNAVAILABLE"}}',
    );
    expect(lines[7]).toBe('data: not json');
  });
});
