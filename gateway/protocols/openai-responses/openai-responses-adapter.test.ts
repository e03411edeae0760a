import { describe, expect, it } from 'vitest';
import { readForwardContext } from '../../spec/read-forward-context.js';
import { openAIResponsesAdapter } from './openai-responses-adapter.js';

function contextOf(fields: Record<string, unknown>) {
  const body = Buffer.from(JSON.stringify({ model: 'gpt-5', input: 'hi', ...fields }));
  return readForwardContext('/v1/responses', body);
}

describe('the OpenAI Responses output cap', () => {
  it.each([
    [{ max_output_tokens: 4000 }, 4000],
    [{}, null],
    [{ max_output_tokens: null }, null],
    [{ max_output_tokens: 0 }, null],
    [{ max_output_tokens: -3 }, null],
    [{ max_output_tokens: 1e300 }, null],
    // A foreign field does not cap a Responses request.
    [{ max_tokens: 10 }, null],
  ])('%j -> %s', (fields, expected) => {
    expect(openAIResponsesAdapter.readOutputCap(contextOf(fields))).toBe(expected);
  });
});
