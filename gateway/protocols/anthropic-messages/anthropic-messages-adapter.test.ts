import { describe, expect, it } from 'vitest';
import { readForwardContext } from '../../spec/read-forward-context.js';
import { anthropicMessagesAdapter } from './anthropic-messages-adapter.js';

function contextOf(fields: Record<string, unknown>) {
  const body = Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', messages: [], ...fields }));
  return readForwardContext('/v1/messages', body);
}

describe('the Anthropic Messages output cap', () => {
  it.each([
    [{ max_tokens: 4000 }, 4000],
    [{ max_tokens: 1 }, 1],
    [{}, null],
    [{ max_tokens: 0 }, null],
    [{ max_tokens: 10.5 }, null],
    [{ max_tokens: '4000' }, null],
  ])('%j -> %s', (fields, expected) => {
    expect(anthropicMessagesAdapter.readOutputCap(contextOf(fields))).toBe(expected);
  });

  it('forwards the very cap it reserves for', () => {
    const context = contextOf({ max_tokens: 4000 });
    const parts = anthropicMessagesAdapter.buildUpstream(context, 'claude-sonnet-4-5-20250929');
    const upstream = JSON.parse(parts.body?.toString('utf8') ?? '{}') as { max_tokens?: number };
    expect(upstream.max_tokens).toBe(anthropicMessagesAdapter.readOutputCap(context));
  });
});
