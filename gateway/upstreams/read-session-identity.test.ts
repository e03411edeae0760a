import { describe, expect, it } from 'vitest';
import { claudeCodeSession, readSessionIdentity } from './read-session-identity.js';

describe('readSessionIdentity', () => {
  const claudeCode = {
    metadata: {
      user_id: JSON.stringify({ device_id: 'd1', account_uuid: '', session_id: 'sess-1' }),
    },
  };

  it('reads the session part of Claude Code metadata.user_id, not the device', () => {
    const one = readSessionIdentity({}, claudeCode);
    const sameSessionOtherDevice = readSessionIdentity(
      {},
      {
        metadata: {
          user_id: JSON.stringify({ device_id: 'd2', account_uuid: '', session_id: 'sess-1' }),
        },
      },
    );
    expect(one).toMatch(/^[0-9a-f]{32}$/);
    expect(sameSessionOtherDevice).toBe(one);
    const otherSession = readSessionIdentity(
      {},
      { metadata: { user_id: JSON.stringify({ device_id: 'd1', session_id: 'sess-2' }) } },
    );
    expect(otherSession).not.toBe(one);
  });

  it('reads the older Claude Code user_id text', () => {
    expect(claudeCodeSession('user_abc_account_123_session_9f0e')).toBe('9f0e');
    expect(claudeCodeSession('user_abc')).toBeNull();
    expect(claudeCodeSession('{not json')).toBeNull();
  });

  it('reads Codex prompt_cache_key and the session headers', () => {
    const codex = readSessionIdentity({}, { prompt_cache_key: 'thread-1' });
    expect(codex).not.toBeNull();
    expect(readSessionIdentity({ 'session-id': 'thread-1' }, {})).not.toBeNull();
    expect(readSessionIdentity({ 'x-claude-code-session-id': 'abc' }, {})).not.toBeNull();
    expect(readSessionIdentity({ 'x-gemini-api-privileged-user-id': 'inst' }, {})).not.toBeNull();
    // The same value under another name is another identity.
    expect(readSessionIdentity({ 'session-id': 'thread-1' }, {})).not.toBe(codex);
  });

  it('prefers the body over headers, and answers null without a session', () => {
    const both = readSessionIdentity({ 'x-session-id': 'h' }, claudeCode);
    expect(both).toBe(readSessionIdentity({}, claudeCode));
    expect(readSessionIdentity({}, { model: 'x' })).toBeNull();
    expect(readSessionIdentity({ 'x-session-id': '  ' }, undefined)).toBeNull();
    expect(readSessionIdentity({}, { prompt_cache_key: 'x'.repeat(600) })).toBeNull();
  });
});
