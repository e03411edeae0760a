/**
 * The head of a relayed (streamed) reply, byte for byte as the caller reads it: the status, the
 * gateway's own headers, the upstream's headers the caller may see (and none it may not), in
 * order, with the chunked framing; and an upstream stream with no bytes still answered with its
 * head and an empty body.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  env,
  key,
  message,
  putUpstream,
  tinyUpstream,
  useForwardingGateway,
} from './forwarding-setup.js';

useForwardingGateway();

const events =
  'event: message_start\ndata: {"type":"message_start","message":{"model":"claude-sonnet-4-6","usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n' +
  'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** A stream upstream with headers the caller may and may not see; `body` empty for none. */
async function streamingKey(name: string, body: string): Promise<string> {
  const baseURL = await tinyUpstream((_request, response) => {
    response.writeHead(200, [
      ['Content-Type', 'text/event-stream; charset=utf-8'],
      ['request-id', 'req_upstream_1'],
      ['anthropic-ratelimit-requests-remaining', '99'],
      ['Set-Cookie', 'upstream=1'],
      ['x-tollgate-request-id', 'forged'],
      ['Cache-Control', 'no-cache'],
    ]);
    response.end(body);
  });
  await putUpstream({ name, platform: 'Anthropic', baseURL });
  return key({ upstreams: [{ name, weight: 1, priority: 0 }] });
}

/** The response's raw head (names as sent, in order) and body. */
function call(apiKey: string): Promise<{ response: IncomingMessage; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${env.base}/v1/messages`);
    const outgoing = httpRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.once('end', () => {
          resolve({ response, body });
        });
        response.once('error', reject);
      },
    );
    outgoing.once('error', reject);
    outgoing.end(message('claude-sonnet-4-6', true));
  });
}

/** Name and value pairs, the values that change per call (request id, date) masked. */
function head(response: IncomingMessage): string[][] {
  const pairs: string[][] = [];
  for (let at = 0; at < response.rawHeaders.length; at += 2) {
    const name = response.rawHeaders[at] ?? '';
    let value = response.rawHeaders[at + 1] ?? '';
    if (name === 'x-tollgate-request-id') value = /^req_[0-9a-f]{32}$/.test(value) ? 'id' : value;
    if (name === 'Date') value = 'date';
    pairs.push([name, value]);
  }
  return pairs;
}

describe('a relayed reply', () => {
  it('sends the status and exactly the headers fastify sent for a stream, in order', async () => {
    const { response, body } = await call(await streamingKey('head-stream', events));
    expect(response.statusCode).toBe(200);
    expect(body).toBe(events);
    expect(head(response)).toEqual([
      ['x-tollgate-request-id', 'id'],
      ['content-type', 'text/event-stream; charset=utf-8'],
      ['request-id', 'req_upstream_1'],
      ['anthropic-ratelimit-requests-remaining', '99'],
      ['Date', 'date'],
      ['Connection', 'keep-alive'],
      ['Keep-Alive', 'timeout=72'],
      ['Transfer-Encoding', 'chunked'],
    ]);
  });

  it('answers an upstream stream with no bytes with its head and an empty body', async () => {
    const { response, body } = await call(await streamingKey('head-empty', ''));
    expect(response.statusCode).toBe(200);
    expect(body).toBe('');
    expect(head(response)).toEqual([
      ['x-tollgate-request-id', 'id'],
      ['content-type', 'text/event-stream; charset=utf-8'],
      ['request-id', 'req_upstream_1'],
      ['anthropic-ratelimit-requests-remaining', '99'],
      ['Date', 'date'],
      ['Connection', 'keep-alive'],
      ['Keep-Alive', 'timeout=72'],
      ['Content-Length', '0'],
    ]);
  });
});
