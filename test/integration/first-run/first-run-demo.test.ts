/**
 * The first run: `tollgate local --port 0` on an empty data folder creates the demo world (the
 * in-process simulator, an Upstream and a Group per platform, Claude and Gemini groups on Vertex
 * AI, namespace `demo` with an Account),
 * says so in its banner, and a key created with kubectl in `demo` calls every platform through
 * the gateway with the official SDKs. A second start creates nothing and keeps the keys working
 * (the Upstreams, and the Vertex AI key's token endpoint, follow the simulator's new port); a data folder that held objects gets no demo.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalProcess, type LocalProcess } from './local-process.js';

const folders: string[] = [];
function emptyFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-first-run-'));
  folders.push(folder);
  return folder;
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const DEMO_OBJECTS = [
  'upstream.tollgate.dev/demo-anthropic',
  'upstream.tollgate.dev/demo-antigravity',
  'upstream.tollgate.dev/demo-gemini',
  'upstream.tollgate.dev/demo-openai',
  'group.tollgate.dev/anthropic',
  'group.tollgate.dev/antigravity',
  'group.tollgate.dev/gemini',
  'group.tollgate.dev/openai',
  'upstream.tollgate.dev/demo-vertex-anthropic',
  'upstream.tollgate.dev/demo-vertex-gemini',
  'group.tollgate.dev/anthropic-vertex',
  'group.tollgate.dev/gemini-vertex',
  'upstream.tollgate.dev/demo-anthropic-bedrock',
  'group.tollgate.dev/anthropic-bedrock',
];

/** The AWS Bedrock-backed group on the simulator, streamed and not: both answers' texts. */
async function callBedrockGroup(gatewayUrl: string, key: string): Promise<string[]> {
  const anthropic = new Anthropic({ apiKey: key, baseURL: gatewayUrl, maxRetries: 0 });
  const request = {
    model: 'claude-sonnet-4-6',
    max_tokens: 32,
    messages: [{ role: 'user' as const, content: 'hi' }],
  };
  const message = await anthropic.messages.create(request);
  const streamed = await anthropic.messages.stream(request).finalMessage();
  return [message, streamed].map((reply) =>
    reply.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
  );
}

async function demoObjects(local: LocalProcess): Promise<string[]> {
  const cluster = await local.kubectl(['get', 'upstreams,groups', '-o', 'name']);
  const accounts = await local.kubectl(['get', 'accounts', '-A', '-o', 'name']);
  const secrets = await local.kubectl([
    'get',
    'secrets',
    '-n',
    'tollgate-system',
    '-l',
    'tollgate.dev/demo=true',
    '-o',
    'name',
  ]);
  return `${cluster}${accounts}${secrets}`.split('\n').filter((name) => name !== '');
}

/** One call per platform with the official SDKs; resolves with the answers' texts. */
type DemoGroup =
  'anthropic' | 'openai' | 'gemini' | 'antigravity' | 'anthropic-vertex' | 'gemini-vertex';

async function callEveryPlatform(gatewayUrl: string, keys: Record<DemoGroup, string>) {
  const anthropic = new Anthropic({ apiKey: keys.anthropic, baseURL: gatewayUrl, maxRetries: 0 });
  const message = await anthropic.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 32,
    messages: [{ role: 'user', content: 'hi' }],
  });
  const openai = new OpenAI({ apiKey: keys.openai, baseURL: `${gatewayUrl}/v1`, maxRetries: 0 });
  const response = await openai.responses.create({ model: 'gpt-5.5', input: 'hi' });
  const gemini = new GoogleGenAI({ apiKey: keys.gemini, httpOptions: { baseUrl: gatewayUrl } });
  const generated = await gemini.models.generateContent({
    model: 'gemini-2.5-flash',
    contents: 'hi',
  });
  const antigravity = new Anthropic({
    apiKey: keys.antigravity,
    baseURL: `${gatewayUrl}/antigravity`,
    maxRetries: 0,
  });
  const viaAntigravity = await antigravity.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 32,
    messages: [{ role: 'user', content: 'hi' }],
  });
  const text = (blocks: { type: string }[]) =>
    blocks.map((block) => ('text' in block ? String(block.text) : '')).join('');
  const onVertex = new Anthropic({
    apiKey: keys['anthropic-vertex'],
    baseURL: gatewayUrl,
    maxRetries: 0,
  });
  const claudeOnVertex = await onVertex.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 32,
    messages: [{ role: 'user', content: 'hi' }],
  });
  const geminiOnVertex = new GoogleGenAI({
    apiKey: keys['gemini-vertex'],
    httpOptions: { baseUrl: gatewayUrl },
  });
  const generatedOnVertex = await geminiOnVertex.models.generateContent({
    model: 'gemini-2.5-flash',
    contents: 'hi',
  });
  return {
    'anthropic-vertex': text(claudeOnVertex.content),
    'gemini-vertex': generatedOnVertex.text ?? '',
    anthropic: text(message.content),
    openai: response.output_text,
    gemini: generated.text ?? '',
    antigravity: text(viaAntigravity.content),
  };
}

describe('tollgate local on an empty data folder', () => {
  const data = emptyFolder();
  const keys: Record<DemoGroup, string> = {
    anthropic: '',
    openai: '',
    gemini: '',
    antigravity: '',
    'anthropic-vertex': '',
    'gemini-vertex': '',
  };
  let bedrockKey = '';

  it('creates the demo world, says how to use it, and a kubectl key calls every platform', async () => {
    const local = await startLocalProcess(data);
    try {
      const banner = local.output();
      expect(banner).toContain('demo world (created on this first start');
      expect(banner).toMatch(/console:\s+http:\/\/127\.0\.0\.1:\d+\n/);
      expect(banner).toContain('create a key in namespace demo');
      expect(banner).toMatch(/simulator:\s+http:\/\/127\.0\.0\.1:\d+ \(all four platforms/);
      expect(banner).toContain(`curl ${local.gatewayUrl}/v1/messages`);
      expect((await demoObjects(local)).sort()).toEqual(
        [
          ...DEMO_OBJECTS,
          'account.tollgate.dev/default',
          'secret/demo-anthropic-credentials',
          'secret/demo-antigravity-credentials',
          'secret/demo-gemini-credentials',
          'secret/demo-openai-credentials',
          'secret/demo-vertex-service-account',
          'secret/demo-anthropic-bedrock-credentials',
        ].sort(),
      );
      expect(await local.kubectl(['get', 'accounts', '-n', 'demo', '-o', 'name'])).toBe(
        'account.tollgate.dev/default\n',
      );
      for (const group of Object.keys(keys) as DemoGroup[]) {
        keys[group] = await local.createKey({ name: `me-${group}`, group });
      }
      const texts = await callEveryPlatform(local.gatewayUrl, keys);
      for (const text of Object.values(texts)) expect(text).toMatch(/\S/);
      bedrockKey = await local.createKey({ name: 'me-bedrock', group: 'anthropic-bedrock' });
      expect(await callBedrockGroup(local.gatewayUrl, bedrockKey)).toEqual([
        'FAKE_OK claude-sonnet-4-6 part1 part2',
        'FAKE_OK claude-sonnet-4-6 part1 part2',
      ]);
    } finally {
      expect(await local.stop()).toBe(0);
    }
  }, 150_000);

  it('creates nothing on a second start, and the keys still work', async () => {
    const local = await startLocalProcess(data);
    try {
      expect(local.output()).toContain('demo world (from the first start)');
      const objects = await demoObjects(local);
      expect(objects.filter((name) => DEMO_OBJECTS.includes(name)).sort()).toEqual(
        [...DEMO_OBJECTS].sort(),
      );
      expect(objects).toHaveLength(DEMO_OBJECTS.length + 7);
      const texts = await callEveryPlatform(local.gatewayUrl, keys);
      for (const text of Object.values(texts)) expect(text).toMatch(/\S/);
      expect(await callBedrockGroup(local.gatewayUrl, bedrockKey)).toHaveLength(2);
    } finally {
      expect(await local.stop()).toBe(0);
    }
  }, 150_000);
});

describe('tollgate local on a data folder that already holds objects', () => {
  it('creates nothing demo-related', async () => {
    const data = emptyFolder();
    const first = await startLocalProcess(data, ['--no-demo']);
    try {
      expect(first.output()).not.toContain('demo world');
      await first.kubectl(['create', 'namespace', 'team-x']);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await startLocalProcess(data);
    try {
      expect(second.output()).not.toContain('demo world');
      expect(await demoObjects(second)).toEqual([]);
      expect(await second.kubectl(['get', 'namespaces', '-o', 'name'])).not.toContain('demo');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 150_000);
});
