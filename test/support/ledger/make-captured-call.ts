/** Builds captured calls for tests, with overridable fields and deterministic defaults. */
import type { CapturedCall } from '../../../store/captured-call.js';

const DAY = 86_400_000;

export function makeCapturedCall(
  overrides: Partial<CapturedCall> & { requestId: string },
): CapturedCall {
  const at = overrides.at ?? Date.UTC(2026, 0, 15, 10, 0, 0);
  return {
    namespace: 'team-a',
    keyName: 'ci-key',
    keyUid: 'key-1',
    group: 'claude',
    platform: 'Anthropic',
    path: '/v1/messages',
    model: 'claude-sonnet-4-5',
    streamed: false,
    at,
    expiresAt: at + 7 * DAY,
    request: {
      text: '{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"key [REDACTED:anthropic-key]"}]}',
      bytes: 120,
      truncated: false,
      contentType: 'application/json',
      redactions: [{ kind: 'anthropic-key', count: 1 }],
    },
    response: {
      text: '{"type":"message","content":[{"type":"text","text":"hello"}]}',
      bytes: 61,
      truncated: false,
      contentType: 'application/json',
      redactions: [],
    },
    ...overrides,
  };
}
