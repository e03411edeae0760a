/**
 * The README's promise: `tollgate simulate` beside local mode, `kubectl apply -f examples/`, and
 * every example key works with its platform's official SDK, the usage billed into `.status`.
 * Anthropic (alice), OpenAI (bob, a chosen key value), Gemini (ci), Antigravity (ide, Google OAuth
 * against the simulator's token endpoint) answer; the suspended key (paused) is refused.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually, startExampleStack, type ExampleStack } from './example-stack.js';

vi.setConfig({ testTimeout: 60_000 });

let examples: ExampleStack;
const keys = { alice: '', bob: '', ci: '', ide: '', paused: '' };

beforeAll(async () => {
  examples = await startExampleStack({ usageRefreshMs: 500 });
  const secret = (name: string, key = 'apiKey') =>
    examples.readSecret({ namespace: 'team-a', name, key });
  keys.alice = await secret('alice-key');
  keys.bob = await secret('bob-chosen-key', 'value');
  keys.ci = await secret('ci-key');
  keys.ide = await secret('ide-key');
  keys.paused = await secret('paused-key');
  await eventually(
    () => examples.kubectl(['get', 'apikeys', '-n', 'team-a']),
    (table) => (table.match(/\bTrue\s+Active\b/g) ?? []).length === 4,
  );
}, 90_000);

afterAll(async () => {
  await examples.close();
});

async function usedUSD(name: string): Promise<number> {
  const text = await eventually(
    () =>
      examples.kubectl([
        'get',
        'apikey',
        name,
        '-n',
        'team-a',
        '-o',
        'jsonpath={.status.usage.usedUSD}',
      ]),
    (value) => Number(value) > 0,
  );
  return Number(text);
}

describe('every example key against tollgate simulate', () => {
  it('alice calls Anthropic with the Anthropic SDK and is billed', async () => {
    const client = new Anthropic({
      apiKey: keys.alice,
      baseURL: examples.stack.gatewayUrl,
      maxRetries: 0,
    });
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(await usedUSD('alice')).toBeGreaterThan(0);
  });

  it('bob calls OpenAI with the OpenAI SDK, Responses and Chat Completions, and is billed', async () => {
    const client = new OpenAI({
      apiKey: keys.bob,
      baseURL: `${examples.stack.gatewayUrl}/v1`,
      maxRetries: 0,
    });
    expect(keys.bob).toBe('tg-bob-chosen-value-0123456789');
    const response = await client.responses.create({ model: 'gpt-5', input: 'hello' });
    expect(response.output_text).toContain('FAKE_OK');
    const chat = await client.chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(chat.choices[0]?.message.content).toContain('FAKE_OK');
    expect(await usedUSD('bob')).toBeGreaterThan(0);
  });

  it('ci calls Gemini with the Google GenAI SDK and is billed', async () => {
    const client = new GoogleGenAI({
      apiKey: keys.ci,
      httpOptions: { baseUrl: examples.stack.gatewayUrl },
    });
    const response = await client.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hello',
    });
    expect(response.text).toContain('FAKE_OK');
    expect(await usedUSD('ci')).toBeGreaterThan(0);
  });

  it('ide calls Antigravity through /antigravity with both SDKs and is billed', async () => {
    const anthropic = new Anthropic({
      apiKey: keys.ide,
      baseURL: `${examples.stack.gatewayUrl}/antigravity`,
      maxRetries: 0,
    });
    const message = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text' });
    const google = new GoogleGenAI({
      apiKey: keys.ide,
      httpOptions: { baseUrl: `${examples.stack.gatewayUrl}/antigravity` },
    });
    const response = await google.models.generateContent({
      model: 'gemini-3-pro',
      contents: 'hello',
    });
    expect(response.text).toContain('FAKE_OK');
    expect(await usedUSD('ide')).toBeGreaterThan(0);
  });

  it('paused is refused as suspended, and the account is charged for the others', async () => {
    const client = new Anthropic({
      apiKey: keys.paused,
      baseURL: `${examples.stack.gatewayUrl}/antigravity`,
      maxRetries: 0,
    });
    const refused = await client.messages
      .create({
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hello' }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.APIError);
    expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBe(403);
    expect(String(refused)).toContain('TG_KEY_SUSPENDED');
    const spent = await eventually(
      () =>
        examples.kubectl([
          'get',
          'account',
          'default',
          '-n',
          'team-a',
          '-o',
          'jsonpath={.status.spentUSD}',
        ]),
      (value) => Number(value) > 0,
    );
    expect(Number(spent)).toBeGreaterThan(0);
  });
});
