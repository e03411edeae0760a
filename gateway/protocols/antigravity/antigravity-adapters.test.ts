import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { readForwardContext } from '../../spec/read-forward-context.js';
import { antigravityGeminiAdapter } from './antigravity-gemini-adapter.js';
import { antigravityMessagesAdapter } from './antigravity-messages-adapter.js';

interface Envelope {
  model?: string;
  request?: { generationConfig?: { maxOutputTokens?: number } };
}

function envelopeOf(parts: { body: Buffer | null }): Envelope {
  return JSON.parse(parts.body?.toString('utf8') ?? '{}') as Envelope;
}

describe('the Antigravity output caps', () => {
  it('reserves the max_tokens that becomes maxOutputTokens in the envelope', () => {
    const body = { model: 'claude-opus-4-6-thinking', max_tokens: 4000, messages: [] };
    const context = readForwardContext(
      '/antigravity/v1/messages',
      Buffer.from(JSON.stringify(body)),
    );
    const envelope = envelopeOf(antigravityMessagesAdapter.buildUpstream(context, null));
    expect(envelope.request?.generationConfig?.maxOutputTokens).toBe(4000);
    expect(antigravityMessagesAdapter.readOutputCap(context)).toBe(4000);
  });

  it.each([
    [{ maxOutputTokens: 4000 }, 4000],
    [{ maxOutputTokens: 0 }, null],
    [undefined, null],
  ])('reserves the Gemini body cap %j the envelope carries untouched', (config, expected) => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: config,
    };
    const context = readForwardContext(
      '/antigravity/v1beta/models/gemini-3-pro-high:generateContent',
      Buffer.from(JSON.stringify(body)),
    );
    const envelope = envelopeOf(antigravityGeminiAdapter.buildUpstream(context, null));
    expect(envelope.model).toBe('gemini-3-pro-high');
    expect(envelope.request?.generationConfig?.maxOutputTokens ?? null).toBe(
      config?.maxOutputTokens ?? null,
    );
    expect(antigravityGeminiAdapter.readOutputCap(context)).toBe(expected);
  });
});

describe('the Antigravity model path', () => {
  it('refuses an encoded traversal', () => {
    const context = readForwardContext(
      '/antigravity/v1beta/models/gemini-3-pro-high%2F..%2F..%2Fv1internal:generateContent',
      Buffer.from('{"contents":[]}'),
    );
    const refusal = (() => {
      try {
        return antigravityGeminiAdapter.readModel(context);
      } catch (error) {
        return error;
      }
    })();
    expect(GatewayError.is(refusal) && refusal.code).toBe('TG_MODEL_NAME_INVALID');
  });
});
