/**
 * Pure: reading the event messages of an upstream Responses WebSocket for the attempt
 * (attempt-upstream-websocket.ts): the event's type, each message as one SSE event, an `error`
 * event as the HTTP error answer it stands for (its `status`, 500 when absent; `retry-after` from
 * its `headers`).
 */
import type { Dispatcher } from 'undici';

export interface WebsocketErrorReply {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  bytes: Buffer;
  /** The body parsed: `{ error }`. */
  json: unknown;
}

export const terminalTypes = new Set([
  'response.completed',
  'response.failed',
  'response.incomplete',
  'error',
]);

export function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

export function eventType(text: string): string {
  return /"type"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? 'message';
}

export function sseFrame(type: string, text: string): string {
  return `event: ${type}\ndata: ${text.includes('\n') ? text.split('\n').join('\ndata: ') : text}\n\n`;
}

export function parseEvent(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The upstream's error event as the HTTP error answer it stands for. */
export function errorReply(event: Record<string, unknown>): WebsocketErrorReply {
  const status = typeof event.status === 'number' && event.status >= 400 ? event.status : 500;
  const headers: Dispatcher.ResponseData['headers'] = { 'content-type': 'application/json' };
  const sent = event.headers;
  if (typeof sent === 'object' && sent !== null) {
    const retryAfter = (sent as Record<string, unknown>)['retry-after'];
    if (typeof retryAfter === 'string') headers['retry-after'] = retryAfter;
  }
  const json = { error: event.error ?? null };
  return { status, headers, bytes: Buffer.from(JSON.stringify(json)), json };
}
