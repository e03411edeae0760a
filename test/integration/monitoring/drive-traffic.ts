/**
 * Test support: calls through the gateway in each platform's own wire format with plain fetch,
 * read to the end; resolves with the status. What the monitoring test needs is traffic of every
 * kind (answered, streamed, refused, failed upstream), not a client library's behaviour.
 */
export type TrafficPlatform = 'anthropic' | 'openai' | 'gemini' | 'antigravity';

export interface CallOptions {
  stream?: boolean;
  /** Overrides the platform's default model. */
  model?: string;
  signal?: AbortSignal;
}

function request(
  platform: TrafficPlatform,
  key: string,
  options: CallOptions,
): { path: string; headers: Record<string, string>; body: unknown } {
  const stream = options.stream ?? false;
  switch (platform) {
    case 'anthropic':
    case 'antigravity':
      return {
        path: platform === 'anthropic' ? '/v1/messages' : '/antigravity/v1/messages',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: {
          model: options.model ?? 'claude-sonnet-4-6',
          max_tokens: 32,
          stream,
          messages: [{ role: 'user', content: 'hi' }],
        },
      };
    case 'openai':
      return {
        path: '/v1/responses',
        headers: { authorization: `Bearer ${key}` },
        body: { model: options.model ?? 'gpt-5.5', input: 'hi', stream },
      };
    case 'gemini': {
      const model = options.model ?? 'gemini-2.5-flash';
      const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      return {
        path: `/v1beta/models/${model}:${method}`,
        headers: { 'x-goog-api-key': key },
        body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      };
    }
  }
}

export async function call(
  gatewayUrl: string,
  platform: TrafficPlatform,
  key: string,
  options: CallOptions = {},
): Promise<number> {
  const { path, headers, body } = request(platform, key, options);
  const response = await fetch(`${gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Runs the calls `concurrency` at a time; resolves with every status. */
export async function callMany(
  calls: readonly (() => Promise<number>)[],
  concurrency = 4,
): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls.length) {
      const index = next++;
      const run = calls[index];
      if (run !== undefined) statuses[index] = await run();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

/** The calling key's quota as `GET /v1/usage` reports it, in nano-USD. */
export async function usedQuotaNano(gatewayUrl: string, key: string): Promise<number> {
  const response = await fetch(`${gatewayUrl}/v1/usage`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (response.status !== 200) throw new Error(`GET /v1/usage: ${response.status}`);
  const usage = (await response.json()) as { quota: { used: number } };
  return Math.round(usage.quota.used * 1e9);
}
