import { describe, expect, it } from 'vitest';
import { errorReply, eventType, sseFrame } from './read-upstream-socket-event.js';

describe('reading upstream socket events', () => {
  it('frames each message as one SSE event named by its type', () => {
    const text = '{"type":"response.created","response":{"id":"resp_1"}}';
    expect(eventType(text)).toBe('response.created');
    expect(sseFrame('response.created', text)).toBe(`event: response.created\ndata: ${text}\n\n`);
    expect(sseFrame('x', '{\n"type":"x"}')).toBe('event: x\ndata: {\ndata: "type":"x"}\n\n');
  });

  it('reads an error event as the HTTP error answer it stands for', () => {
    const error = { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' };
    const reply = errorReply({
      type: 'error',
      status: 429,
      error,
      headers: { 'retry-after': '7' },
    });
    expect(reply.status).toBe(429);
    expect(reply.headers).toEqual({ 'content-type': 'application/json', 'retry-after': '7' });
    expect(JSON.parse(reply.bytes.toString('utf8'))).toEqual({ error });
    expect(errorReply({ type: 'error', error }).status).toBe(500);
  });
});
