/**
 * The conversation a call belongs to, from what each client sends (pure; CLIENTS.md), for sticky
 * sessions. In order: Claude Code's `metadata.user_id` session part (a JSON string with
 * `session_id`, or the older `user_…_account_…_session_<uuid>` text), Codex's `prompt_cache_key`,
 * then the session headers: `x-claude-code-session-id` (Claude Code), `session-id` / `session_id`
 * (Codex), `x-session-affinity` / `x-session-id` (OpenCode and other clients), and
 * `x-gemini-api-privileged-user-id` (Gemini CLI, which sends no per-conversation id: its
 * installation id, present when usage statistics are on). The result is a digest, so neither the
 * store nor a log ever holds the client's value; null when the call names no session.
 */
import { createHash } from 'node:crypto';

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

const SESSION_HEADERS = [
  'x-claude-code-session-id',
  'session-id',
  'session_id',
  'x-session-affinity',
  'x-session-id',
  'x-gemini-api-privileged-user-id',
] as const;

/** Longer values are not session ids (and are not hashed on every call). */
const MAX_IDENTITY_LENGTH = 512;

function usable(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' || text.length > MAX_IDENTITY_LENGTH ? null : text;
}

function field(json: unknown, name: string): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  return (json as Record<string, unknown>)[name];
}

/** Claude Code's `metadata.user_id`: `{"device_id","account_uuid","session_id"}` or the older text. */
export function claudeCodeSession(userId: string): string | null {
  if (userId.startsWith('{')) {
    try {
      return usable(field(JSON.parse(userId) as unknown, 'session_id'));
    } catch {
      return null;
    }
  }
  const marker = userId.lastIndexOf('_session_');
  return marker < 0 ? null : usable(userId.slice(marker + '_session_'.length));
}

function rawIdentity(headers: RequestHeaders, json: unknown): string | null {
  const userId = usable(field(field(json, 'metadata'), 'user_id'));
  const fromUserId = userId === null ? null : claudeCodeSession(userId);
  if (fromUserId !== null) return `claude-code:${fromUserId}`;
  const cacheKey = usable(field(json, 'prompt_cache_key'));
  if (cacheKey !== null) return `prompt-cache-key:${cacheKey}`;
  for (const name of SESSION_HEADERS) {
    const header = headers[name];
    const value = usable(Array.isArray(header) ? header[0] : header);
    if (value !== null) return `${name}:${value}`;
  }
  return null;
}

/** The digest of the call's session identity (32 hex digits), or null when it names none. */
export function readSessionIdentity(headers: RequestHeaders, json: unknown): string | null {
  const identity = rawIdentity(headers, json);
  if (identity === null) return null;
  return createHash('sha256').update(identity).digest('hex').slice(0, 32);
}
