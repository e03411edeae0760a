/**
 * The requests the bench sends: one non-streamed and one streamed call on each of the anthropic,
 * openai (Responses) and gemini platforms, with each platform's own credential header. Pure.
 */

export type BenchPlatform = 'anthropic' | 'openai' | 'gemini';

export interface BenchRequestKind {
  platform: BenchPlatform;
  stream: boolean;
  /** OpenAI only: Chat Completions instead of Responses (the side-by-side bench). */
  chat?: boolean;
}

export interface BenchRequest {
  name: string;
  stream: boolean;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The credential each platform's callers send: the bench key (gateway) or the upstream key. */
export type BenchCredentials = Record<BenchPlatform, string>;

export const BENCH_PLATFORMS: readonly BenchPlatform[] = ['anthropic', 'openai', 'gemini'];

export const BENCH_KINDS: readonly BenchRequestKind[] = BENCH_PLATFORMS.flatMap((platform) => [
  { platform, stream: false },
  { platform, stream: true },
]);

const GEMINI_MODEL = 'gemini-2.5-flash';

export function describeBenchRequest(
  kind: BenchRequestKind,
  credentials: BenchCredentials,
): BenchRequest {
  const name = `${kind.platform}${kind.chat === true ? '-chat' : ''}${kind.stream ? '-stream' : ''}`;
  const json = { 'content-type': 'application/json' };
  const credential = credentials[kind.platform];
  switch (kind.platform) {
    case 'anthropic':
      return {
        name,
        stream: kind.stream,
        path: '/v1/messages',
        headers: { ...json, 'x-api-key': credential, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model: 'claude-sonnet-4-6',
          max_tokens: 64,
          stream: kind.stream,
          messages: [{ role: 'user', content: 'Say hello from the bench.' }],
        }),
      };
    case 'openai':
      if (kind.chat === true) {
        return {
          name,
          stream: kind.stream,
          path: '/v1/chat/completions',
          headers: { ...json, authorization: `Bearer ${credential}` },
          body: JSON.stringify({
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'Say hello from the bench.' }],
            stream: kind.stream,
            ...(kind.stream ? { stream_options: { include_usage: true } } : {}),
          }),
        };
      }
      return {
        name,
        stream: kind.stream,
        path: '/v1/responses',
        headers: { ...json, authorization: `Bearer ${credential}` },
        body: JSON.stringify({
          model: 'gpt-5',
          input: 'Say hello from the bench.',
          stream: kind.stream,
        }),
      };
    case 'gemini':
      return {
        name,
        stream: kind.stream,
        path: kind.stream
          ? `/v1beta/models/${GEMINI_MODEL}:streamGenerateContent?alt=sse`
          : `/v1beta/models/${GEMINI_MODEL}:generateContent`,
        headers: { ...json, 'x-goog-api-key': credential },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] }),
      };
  }
}

/** Request `index` of a run cycles through the kinds, so every rate mixes all six evenly. */
export function kindAt(kinds: readonly BenchRequestKind[], index: number): BenchRequestKind {
  const kind = kinds[index % kinds.length];
  if (kind === undefined) throw new Error('no request kinds');
  return kind;
}
