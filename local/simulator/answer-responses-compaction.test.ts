/**
 * The fake's remote compaction against the official `openai` SDK: the compact endpoint's JSON
 * reply (user messages, then exactly one compaction item, and usage), and the v2 form on
 * `/v1/responses` (exactly one compaction item in `response.output_item.done`, an empty
 * `response.completed.output`, usage on it).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endsWithCompactionTrigger } from './answer-responses-compaction.js';
import {
  DEFAULT_FAKE_CREDENTIAL,
  startFakeProvider,
  type FakeProvider,
} from './start-fake-provider.js';

let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider({ keepRequests: 100 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

const client = (): OpenAI =>
  new OpenAI({ apiKey: DEFAULT_FAKE_CREDENTIAL, baseURL: `${fake.url}/v1`, maxRetries: 0 });

const history = [
  { role: 'user' as const, content: 'write a parser' },
  { role: 'assistant' as const, content: 'done' },
  { role: 'user' as const, content: 'now test it' },
];

describe('POST /v1/responses/compact', () => {
  it('answers the user messages, then exactly one compaction item, with usage', async () => {
    const compacted = await client().responses.compact({ model: 'gpt-5.5', input: history });
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output).toHaveLength(3);
    expect(compacted.output.slice(0, 2)).toMatchObject([
      { type: 'message', role: 'user', content: 'write a parser' },
      { type: 'message', role: 'user', content: 'now test it' },
    ]);
    const item = compacted.output[2];
    expect(item).toMatchObject({ type: 'compaction', id: 'cmp_fake_1' });
    const opaque = (item as { encrypted_content: string }).encrypted_content;
    expect(Buffer.from(opaque, 'base64').toString()).toBe('FAKE_COMPACTION gpt-5.5 items=3');
    const bytes = Buffer.byteLength(fake.requests[0]?.rawBody ?? '');
    expect(compacted.usage).toMatchObject({
      input_tokens: Math.ceil(bytes / 4),
      output_tokens: Math.ceil(opaque.length / 4),
    });
  });
});

describe('the v2 form: /v1/responses ending with compaction_trigger', () => {
  const input = [...history, { type: 'compaction_trigger' as const }];

  it('streams exactly one compaction item in output_item.done and an empty completed output', async () => {
    const stream = await client().responses.create({ model: 'gpt-5.5', input, stream: true });
    const events: { type: string; item?: unknown; response?: { output: unknown[] } }[] = [];
    for await (const event of stream) events.push(event);
    const done = events.filter((event) => event.type === 'response.output_item.done');
    expect(done).toHaveLength(1);
    const item = done[0]?.item as { type?: unknown; encrypted_content?: unknown } | undefined;
    expect(item?.type).toBe('compaction');
    expect(typeof item?.encrypted_content).toBe('string');
    const completed = events.at(-1);
    expect(completed?.type).toBe('response.completed');
    expect(completed?.response?.output).toEqual([]);
    const usage = (completed?.response as { usage?: { input_tokens?: unknown } } | undefined)
      ?.usage;
    expect(usage?.input_tokens).toBeGreaterThan(0);
    expect(events.some((event) => event.type === 'response.output_text.delta')).toBe(false);
  });

  it('answers a whole reply with the one compaction item as its output', async () => {
    const response = await client().responses.create({ model: 'gpt-5.5', input });
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({ type: 'compaction' });
  });

  it('leaves every other Responses request to the normal answer', async () => {
    const response = await client().responses.create({ model: 'gpt-5.5', input: history });
    expect(response.output_text).toBe('FAKE_OK gpt-5.5 part1 part2');
    expect(endsWithCompactionTrigger(history)).toBe(false);
    expect(endsWithCompactionTrigger('text')).toBe(false);
  });
});
