import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BENCH_WORLD_KEY, BENCH_WORLD_NAMESPACE, renderBenchWorld } from './render-bench-world.js';

interface Resource {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec: Record<string, unknown> & {
    limits?: Record<string, string>;
    secretName?: string;
    secretKey?: string;
  };
  data: Record<string, string>;
}

describe('renderBenchWorld', () => {
  const documents = parseAllDocuments(
    renderBenchWorld({ upstreamUrl: 'http://127.0.0.1:4000', keyValue: 'sk-tg-bench-1' }),
  ).map((document) => document.toJS() as Resource);
  const find = (kind: string, name: string) =>
    documents.find((one) => one.kind === kind && one.metadata.name === name);

  it('points an OpenAI Upstream at the upstream, Chat Completions native', () => {
    const upstream = find('Upstream', 'bench-openai');
    expect(upstream?.spec).toMatchObject({
      platform: 'OpenAI',
      baseURL: 'http://127.0.0.1:4000',
      chatCompletions: 'Native',
    });
    const secret = find('Secret', 'bench-upstream-credentials');
    expect(secret?.metadata.namespace).toBe('tollgate-system');
    expect(Buffer.from(String(secret?.data.apiKey), 'base64').toString()).toBe('fake-upstream-key');
  });

  it('gives the key its chosen value and every admission feature', () => {
    const key = find('ApiKey', BENCH_WORLD_KEY);
    expect(key?.metadata.namespace).toBe(BENCH_WORLD_NAMESPACE);
    expect(Object.keys(key?.spec.limits ?? {}).sort()).toEqual([
      'dailyUSD',
      'fiveHourUSD',
      'quotaUSD',
      'sevenDayUSD',
    ]);
    expect(key?.spec.sourceRanges).toEqual({ allow: ['127.0.0.1/32'], deny: ['10.0.0.0/8'] });
    expect(key?.spec.maxConcurrentRequests).toBe(100_000);
    const value = find('Secret', String(key?.spec.secretName));
    expect(Buffer.from(String(value?.data[key?.spec.secretKey ?? '']), 'base64').toString()).toBe(
      'sk-tg-bench-1',
    );
    const account = find('Account', 'default');
    expect(account?.spec.maxConcurrentRequests).toBe(100_000);
    expect(Number(account?.spec.creditUSD)).toBeGreaterThan(1000);
  });
});
