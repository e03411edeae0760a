import { describe, expect, it } from 'vitest';
import { convertMessagesRequest } from './convert-messages-request.js';
import cases from './__fixtures__/messages-requests.json' with { type: 'json' };
import refusals from './__fixtures__/messages-refusals.json' with { type: 'json' };

const options = { projectId: 'proj-1', requestId: 'agent-123' };
const base = {
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'Hi' }],
};

describe('convertMessagesRequest', () => {
  it.each(cases)('$name', ({ anthropic, request, stream }) => {
    expect(convertMessagesRequest(anthropic, options)).toEqual({
      ok: true,
      envelope: {
        project: 'proj-1',
        requestId: 'agent-123',
        userAgent: 'antigravity',
        requestType: 'agent',
        model: anthropic.model,
        request,
      },
      stream,
      model: anthropic.model,
    });
  });

  it.each(refusals)('refuses $name', ({ patch, param }) => {
    const result = convertMessagesRequest({ ...base, ...patch }, options);
    expect(result).toMatchObject({ ok: false, param });
    expect(result.ok ? '' : result.message).not.toBe('');
  });
});
