/**
 * The tool-session plan (answer-tool-calls.ts) on conversations as the CLIs send them: markers read
 * from the prompt only, system turns after it ignored, a tool not offered refused in text, the
 * "use tool" prompt kept, and the final answer cut to the echo limit.
 */
import { describe, expect, it } from 'vitest';
import { planToolTurn, readToolMarkers, RESULT_ECHO_LIMIT } from './answer-tool-calls.js';
import { readAnthropicConversation, readGeminiConversation } from './read-tool-conversation.js';

describe('readToolMarkers', () => {
  it('reads whole lines with a JSON object, in order, and skips the rest', () => {
    const text = [
      'TOOL:Read {"file_path":"/a"}',
      'see TOOL:Read {"file_path":"/inline"}',
      'TOOL:Bash ["not", "an object"]',
      'TOOL:Bash {broken',
      'TOOL:read_file {"file_path":"/b"}  ',
    ].join('\n');
    expect(readToolMarkers(text)).toEqual([
      { name: 'Read', arguments: { file_path: '/a' } },
      { name: 'read_file', arguments: { file_path: '/b' } },
    ]);
  });
});

describe('planToolTurn', () => {
  const tools = [{ name: 'Read', input_schema: {} }];

  it('Claude Code shape: a system message after the prompt, then the tool result', () => {
    const prompt = {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
        { type: 'text', text: 'Read it.\nTOOL:Read {"file_path":"/n.txt"}' },
      ],
    };
    const system = { role: 'system', content: 'agent types' };
    const first = readAnthropicConversation({ tools, messages: [prompt, system] });
    expect(planToolTurn(first, 'm')).toEqual({
      call: { name: 'Read', arguments: { file_path: '/n.txt' }, index: 1 },
      deltas: null,
    });
    const result = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_fake_1', content: '1\tnote' }],
    };
    const messages = [prompt, system, { role: 'assistant', content: [] }, result];
    const second = readAnthropicConversation({ tools, messages });
    expect(planToolTurn(second, 'm')).toEqual({
      call: null,
      deltas: ['FAKE_OK m', ' after tools:', ' 1\tnote'],
    });
  });

  it('a tool the request does not offer gets text saying so', () => {
    const conversation = readAnthropicConversation({
      tools,
      messages: [{ role: 'user', content: 'TOOL:Write {"file_path":"/x"}' }],
    });
    expect(planToolTurn(conversation, 'm')).toEqual({
      call: null,
      deltas: ['FAKE_OK m', ' (tool Write not offered)'],
    });
  });

  it('"use tool" without markers calls the first tool; a later prompt without either does not', () => {
    const ask = { role: 'user', parts: [{ text: 'please use tool' }] };
    const request = { tools: [{ functionDeclarations: [{ name: 'lookup' }] }], contents: [ask] };
    expect(planToolTurn(readGeminiConversation(request), 'm').call).toEqual({
      name: 'lookup',
      arguments: { query: 'FAKE_OK' },
      index: 1,
    });
    const later = { ...request, contents: [ask, { role: 'user', parts: [{ text: 'hi' }] }] };
    expect(planToolTurn(readGeminiConversation(later), 'm')).toEqual({ call: null, deltas: null });
  });

  it('repeats at most the echo limit of each result', () => {
    const long = 'x'.repeat(RESULT_ECHO_LIMIT + 50);
    const request = {
      tools: [{ functionDeclarations: [{ name: 'read_file' }] }],
      contents: [
        { role: 'user', parts: [{ text: 'TOOL:read_file {"file_path":"/f"}' }] },
        { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'read_file', response: { output: long } } }],
        },
      ],
    };
    const turn = planToolTurn(readGeminiConversation(request), 'm');
    expect(turn.deltas?.at(-1)).toBe(` ${'x'.repeat(RESULT_ECHO_LIMIT)}`);
  });
});
