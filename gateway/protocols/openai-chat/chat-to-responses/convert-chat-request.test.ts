import { describe, expect, it } from 'vitest';
import { convertChatRequest } from './convert-chat-request.js';
import cases from './__fixtures__/chat-requests.json' with { type: 'json' };
import refusals from './__fixtures__/chat-refusals.json' with { type: 'json' };

const base = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] };

describe('convertChatRequest', () => {
  it.each(cases)('$name', ({ chat, responses, includeUsage }) => {
    const result = convertChatRequest(chat);
    expect(result).toEqual({ ok: true, request: responses, includeUsage, model: chat.model });
  });

  it.each(refusals)('refuses $name', ({ patch, param }) => {
    const result = convertChatRequest({ ...base, ...patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.param).toBe(param);
    expect(result.message.length).toBeGreaterThan(10);
  });

  it('explains that Responses has no stop sequences', () => {
    const result = convertChatRequest({ ...base, stop: 'END' });
    expect(result.ok ? '' : result.message).toContain('no stop sequences');
  });

  it('refuses a body that is not an object', () => {
    expect(convertChatRequest('nope')).toMatchObject({ ok: false, param: null });
  });

  it('keeps unknown fields out of the upstream request', () => {
    const result = convertChatRequest({ ...base, some_future_field: 1 });
    expect(result.ok && Object.keys(result.request)).toEqual([
      'model',
      'input',
      'store',
      'include',
    ]);
  });
});
