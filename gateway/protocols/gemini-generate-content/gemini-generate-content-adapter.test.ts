import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { readForwardContext } from '../../spec/read-forward-context.js';
import { geminiGenerateContentAdapter } from './gemini-generate-content-adapter.js';

const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];

function contextOf(
  fields: Record<string, unknown>,
  url = '/v1beta/models/gemini-2.5-flash:generateContent',
) {
  return readForwardContext(url, Buffer.from(JSON.stringify({ contents, ...fields })));
}

describe('the Gemini output cap', () => {
  it.each([
    [{ generationConfig: { maxOutputTokens: 4000 } }, 4000],
    [{ generation_config: { max_output_tokens: 4000 } }, 4000],
    [{ generationConfig: { maxOutputTokens: '4000' } }, 4000],
    [
      { generationConfig: { maxOutputTokens: 100 }, generation_config: { maxOutputTokens: 900 } },
      900,
    ],
    [{}, null],
    [{ generationConfig: { temperature: 1 } }, null],
    // proto3: 0 is "not set", so the model's own maximum applies.
    [{ generationConfig: { maxOutputTokens: 0 } }, null],
    [{ generationConfig: { maxOutputTokens: 100, max_output_tokens: 0 } }, null],
    [{ generationConfig: { maxOutputTokens: -5 } }, null],
    [{ generationConfig: { maxOutputTokens: 'lots' } }, null],
    // Every candidate may use the whole cap.
    [{ generationConfig: { maxOutputTokens: 4000, candidateCount: 3 } }, 12_000],
    [{ generation_config: { candidate_count: '2' } }, 2 * 65_536],
  ])('%j -> %s', (fields, expected) => {
    expect(geminiGenerateContentAdapter.readOutputCap(contextOf(fields))).toBe(expected);
  });
});

describe('the Gemini model path', () => {
  it('builds the upstream path from the validated model or its override', () => {
    const context = contextOf(
      {},
      '/v1beta/models/gemini%2D2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(geminiGenerateContentAdapter.readModel(context)).toBe('gemini-2.5-flash');
    expect(geminiGenerateContentAdapter.buildUpstream(context, null).path).toBe(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(geminiGenerateContentAdapter.buildUpstream(context, 'gemini-2.5-pro').path).toBe(
      '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
  });

  it('refuses an encoded traversal instead of forwarding it', () => {
    const context = contextOf(
      {},
      '/v1beta/models/gemini-2.5-flash%2F..%2F..%2Fv1%2Fmessages:generateContent',
    );
    const refusal = (() => {
      try {
        return geminiGenerateContentAdapter.readModel(context);
      } catch (error) {
        return error;
      }
    })();
    expect(GatewayError.is(refusal) && refusal.code).toBe('TG_MODEL_NAME_INVALID');
    expect(() => geminiGenerateContentAdapter.buildUpstream(context, null)).toThrow(GatewayError);
  });

  it('never puts an unsafe override into the path', () => {
    const context = contextOf({});
    expect(() => geminiGenerateContentAdapter.buildUpstream(context, '../v1/messages')).toThrow(
      GatewayError,
    );
  });
});
