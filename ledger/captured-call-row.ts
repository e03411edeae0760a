/**
 * Pure: a captured call from the store's hand-off (store/captured-call.ts) checked against what
 * `captured_calls` can hold, and mapped to the row the insert reads. The store's parse is lenient
 * (it drops only what is not a capture at all); a capture the table cannot hold is refused here
 * with a reason instead of failing its whole batch for ever.
 */
import { z } from 'zod';
import type { CapturedBody, CapturedCall } from '../store/captured-call.js';

const epochMs = z.number().int().min(0).max(253_402_300_799_999);
const name = z.string().max(253);

const bodySchema = z.object({
  text: z.string(),
  bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  truncated: z.boolean(),
  contentType: z.string().max(1_000),
  redactions: z.array(
    z.object({ kind: z.string().min(1).max(100), count: z.number().int().min(1).max(1e9) }),
  ),
});

const callSchema = z.object({
  requestId: z.string().min(1).max(200),
  namespace: name.min(1),
  keyName: name,
  keyUid: z.string().min(1).max(200),
  group: name,
  platform: z.string().max(100),
  path: z.string().max(10_000),
  model: z.string().max(10_000).nullable(),
  streamed: z.boolean(),
  at: epochMs,
  expiresAt: epochMs,
  request: bodySchema.nullable(),
  response: bodySchema.nullable(),
});

export type ParsedCapture = { ok: true; call: CapturedCall } | { ok: false; reason: string };

/** Checks one capture from the hand-off. */
export function parseCapturedCallRow(value: unknown): ParsedCapture {
  const parsed = callSchema.safeParse(value);
  if (parsed.success) return { ok: true, call: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
}

/**
 * PostgreSQL text holds no NUL character (neither does jsonb): one in a body would fail the insert
 * of the whole batch on every retry, so it is stored as U+FFFD.
 */
function storable(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

function bodyColumns(side: 'request' | 'response', body: CapturedBody | null) {
  return {
    [`${side}_text`]: body === null ? null : storable(body.text),
    [`${side}_bytes`]: body?.bytes ?? null,
    [`${side}_truncated`]: body?.truncated ?? null,
    [`${side}_content_type`]: body === null ? null : storable(body.contentType),
    [`${side}_redactions`]: body === null ? null : body.redactions,
  };
}

/** The row of `jsonb_to_recordset` in insert-captured-calls.ts (times as epoch ms). */
export function capturedCallRow(call: CapturedCall): Record<string, unknown> {
  return {
    request_id: call.requestId,
    at_ms: call.at,
    expires_at_ms: call.expiresAt,
    namespace: call.namespace,
    key_uid: call.keyUid,
    key_name: call.keyName,
    group_name: call.group,
    platform: call.platform,
    path: storable(call.path),
    model: call.model === null ? null : storable(call.model),
    streamed: call.streamed,
    ...bodyColumns('request', call.request),
    ...bodyColumns('response', call.response),
  };
}
