/**
 * The simulator's tool sessions (answer-tool-calls.ts) through the official SDKs, streamed and
 * not: a prompt with `TOOL:<name> <json>` lines gets a call of that tool the SDK parses (name,
 * arguments, id), each tool result sent back gets the next marker's call, and the last reply is
 * text repeating the results. Antigravity, which has no SDK, is read as SSE.
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  createPartFromFunctionCall,
  createPartFromFunctionResponse,
  GoogleGenAI,
  type Content,
} from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_FAKE_CREDENTIAL,
  startFakeProvider,
  type FakeProvider,
} from './start-fake-provider.js';

let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
});

const PROMPT = 'Read two files.\nTOOL:read {"path":"a.txt"}\nTOOL:read {"path":"b.txt"}';
const SCHEMA = { type: 'object' as const, properties: { path: { type: 'string' } } };

describe('Anthropic Messages (@anthropic-ai/sdk)', () => {
  const client = (): Anthropic =>
    new Anthropic({ apiKey: DEFAULT_FAKE_CREDENTIAL, baseURL: fake.url, maxRetries: 0 });
  const tools = [
    { name: 'read', input_schema: SCHEMA },
    { name: 'other', input_schema: SCHEMA },
  ];

  it('calls the marked tools in turn, streamed and not, then answers with the results', async () => {
    const first = { model: 'claude-haiku-4-5', max_tokens: 64, tools };
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: PROMPT }];
    const plain = await client().messages.create({ ...first, messages });
    const streamed = await client()
      .messages.stream({ ...first, messages })
      .finalMessage();
    for (const reply of [plain, streamed]) {
      expect(reply.stop_reason).toBe('tool_use');
      expect(reply.content.at(-1)).toEqual({
        type: 'tool_use',
        id: 'toolu_fake_1',
        name: 'read',
        input: { path: 'a.txt' },
      });
    }
    messages.push(
      { role: 'assistant', content: streamed.content },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_fake_1', content: 'A1' }],
      },
    );
    const second = await client()
      .messages.stream({ ...first, messages })
      .finalMessage();
    expect(second.content.at(-1)).toMatchObject({ id: 'toolu_fake_2', input: { path: 'b.txt' } });
    messages.push(
      { role: 'assistant', content: second.content },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_fake_2',
            content: [{ type: 'text', text: 'B2' }],
          },
        ],
      },
    );
    const last = await client()
      .messages.stream({ ...first, messages })
      .finalMessage();
    expect(last.stop_reason).toBe('end_turn');
    expect(last.content).toEqual([
      { type: 'text', text: 'FAKE_OK claude-haiku-4-5 after tools: A1 B2' },
    ]);
  });
});

describe('OpenAI (openai)', () => {
  const client = (): OpenAI =>
    new OpenAI({ apiKey: DEFAULT_FAKE_CREDENTIAL, baseURL: `${fake.url}/v1`, maxRetries: 0 });

  it('Responses: function_call items, streamed with argument deltas, then text', async () => {
    const tools = [{ type: 'function' as const, name: 'read', parameters: SCHEMA, strict: false }];
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: PROMPT }];
    const plain = await client().responses.create({ model: 'gpt-5', tools, input });
    const deltas: string[] = [];
    const stream = client().responses.stream({ model: 'gpt-5', tools, input });
    stream.on('response.function_call_arguments.delta', (event) => deltas.push(event.delta));
    const streamed = await stream.finalResponse();
    for (const reply of [plain, streamed]) {
      expect(reply.output).toEqual([
        expect.objectContaining({
          type: 'function_call',
          id: 'fc_fake_1',
          call_id: 'call_fake_1',
          name: 'read',
          arguments: '{"path":"a.txt"}',
        }),
      ]);
    }
    expect(deltas.join('')).toBe('{"path":"a.txt"}');
    input.push(
      {
        type: 'function_call',
        call_id: 'call_fake_1',
        name: 'read',
        arguments: '{"path":"a.txt"}',
      },
      { type: 'function_call_output', call_id: 'call_fake_1', output: 'A1' },
    );
    const second = await client().responses.create({ model: 'gpt-5', tools, input });
    expect(second.output[0]).toMatchObject({
      call_id: 'call_fake_2',
      arguments: '{"path":"b.txt"}',
    });
    input.push(
      {
        type: 'function_call',
        call_id: 'call_fake_2',
        name: 'read',
        arguments: '{"path":"b.txt"}',
      },
      { type: 'function_call_output', call_id: 'call_fake_2', output: 'B2' },
    );
    const last = await client().responses.stream({ model: 'gpt-5', tools, input }).finalResponse();
    expect(last.output_text).toBe('FAKE_OK gpt-5 after tools: A1 B2');
  });

  it('Chat Completions: tool_calls, streamed and not, then text', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'read', parameters: SCHEMA } }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
    const plain = await client().chat.completions.create({ model: 'gpt-4.1', tools, messages });
    const streamed = await client()
      .chat.completions.stream({ model: 'gpt-4.1', tools, messages, stream: true })
      .finalChatCompletion();
    for (const reply of [plain, streamed]) {
      expect(reply.choices[0]?.finish_reason).toBe('tool_calls');
      expect(reply.choices[0]?.message.tool_calls).toEqual([
        {
          id: 'call_fake_1',
          type: 'function',
          function: { name: 'read', arguments: '{"path":"a.txt"}' },
        },
      ]);
    }
    messages.push(
      { role: 'assistant', content: null, tool_calls: plain.choices[0]?.message.tool_calls ?? [] },
      { role: 'tool', tool_call_id: 'call_fake_1', content: 'A1' },
    );
    const second = await client().chat.completions.create({ model: 'gpt-4.1', tools, messages });
    expect(second.choices[0]?.message.tool_calls?.[0]?.id).toBe('call_fake_2');
    messages.push(
      { role: 'assistant', content: null, tool_calls: second.choices[0]?.message.tool_calls ?? [] },
      { role: 'tool', tool_call_id: 'call_fake_2', content: 'B2' },
    );
    const last = await client().chat.completions.create({ model: 'gpt-4.1', tools, messages });
    expect(last.choices[0]?.message.content).toBe('FAKE_OK gpt-4.1 after tools: A1 B2');
    expect(last.choices[0]?.finish_reason).toBe('stop');
  });
});

describe('Gemini (@google/genai) and Antigravity', () => {
  const client = (): GoogleGenAI =>
    new GoogleGenAI({ apiKey: DEFAULT_FAKE_CREDENTIAL, httpOptions: { baseUrl: fake.url } });
  const config = {
    tools: [{ functionDeclarations: [{ name: 'read', parametersJsonSchema: SCHEMA }] }],
  };
  const model = 'gemini-2.5-flash';

  it('functionCall parts, streamed and not, then text', async () => {
    const contents: Content[] = [{ role: 'user', parts: [{ text: PROMPT }] }];
    const plain = await client().models.generateContent({ model, contents, config });
    let streamedCalls: unknown;
    for await (const chunk of await client().models.generateContentStream({
      model,
      contents,
      config,
    })) {
      streamedCalls = chunk.functionCalls ?? streamedCalls;
    }
    expect(plain.functionCalls).toEqual([{ name: 'read', args: { path: 'a.txt' } }]);
    expect(streamedCalls).toEqual([{ name: 'read', args: { path: 'a.txt' } }]);
    const answer = (name: string, output: string): Content[] => [
      { role: 'model', parts: [createPartFromFunctionCall(name, {})] },
      { role: 'user', parts: [createPartFromFunctionResponse('', name, { output })] },
    ];
    contents.push(...answer('read', 'A1'));
    const second = await client().models.generateContent({ model, contents, config });
    expect(second.functionCalls).toEqual([{ name: 'read', args: { path: 'b.txt' } }]);
    contents.push(...answer('read', 'B2'));
    const last = await client().models.generateContent({ model, contents, config });
    expect(last.functionCalls).toBeUndefined();
    expect(last.text).toBe(`FAKE_OK ${model} after tools: A1 B2`);
  });

  it('Antigravity wraps the same functionCall', async () => {
    const request = { contents: [{ role: 'user', parts: [{ text: PROMPT }] }], ...config };
    const response = await fetch(`${fake.url}/v1internal:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { authorization: 'Bearer fake-access-token', 'content-type': 'application/json' },
      body: JSON.stringify({ model, project: 'p', request }),
    });
    expect(response.status).toBe(200);
    const chunks = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { response: { candidates: unknown[] } });
    expect(chunks.at(-1)?.response.candidates[0]).toMatchObject({
      content: {
        parts: [{ text: ' part2' }, { functionCall: { name: 'read', args: { path: 'a.txt' } } }],
      },
      finishReason: 'STOP',
    });
  });
});
