import { describe, expect, it } from 'vitest';
import { createVertexEventDropper } from './drop-vertex-events.js';

const frame = (name: string, data: unknown): string =>
  `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

const firstParty = [
  frame('message_start', {
    type: 'message_start',
    message: { id: 'm', usage: { input_tokens: 9 } },
  }),
  frame('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  }),
  frame('ping', { type: 'ping' }),
  frame('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'a "vertex_event" b' },
  }),
  frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
  frame('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn' },
    usage: { output_tokens: 3 },
  }),
];
const vertexEvent = frame('vertex_event', {
  type: 'vertex_event',
  usage: { input_tokens: 9, output_tokens: 3 },
});
const stop = frame('message_stop', { type: 'message_stop' });
const fromVertex = [...firstParty, vertexEvent, stop].join('');
const expected = [...firstParty, stop].join('');

function decodeInPieces(text: string, cuts: number[]): string {
  const decoder = createVertexEventDropper();
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(decoder.push(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(decoder.end());
  return Buffer.concat(out).toString();
}

describe('the Vertex AI stream decoder', () => {
  it('drops vertex_event and passes every other event byte for byte', () => {
    expect(decodeInPieces(fromVertex, [])).toBe(expected);
    expect(createVertexEventDropper().contentType).toBe('text/event-stream');
  });

  it('gives the same bytes however the stream is cut', () => {
    const length = Buffer.byteLength(fromVertex);
    for (let cut = 1; cut < length; cut += 1) {
      expect(decodeInPieces(fromVertex, [cut])).toBe(expected);
    }
    const everyFew = Array.from({ length: Math.floor(length / 7) }, (_, index) => (index + 1) * 7);
    expect(decodeInPieces(fromVertex, everyFew)).toBe(expected);
  });

  it('drops a data-only vertex_event, keeps CRLF framing, and passes an unended event on', () => {
    const crlf = `event: ping\r\ndata: {"type":"ping"}\r\n\r\ndata: {"type":"vertex_event"}\r\n\r\n`;
    expect(decodeInPieces(crlf, [])).toBe('event: ping\r\ndata: {"type":"ping"}\r\n\r\n');
    expect(decodeInPieces(`${stop}event: message_delta\ndata: {`, [5])).toBe(
      `${stop}event: message_delta\ndata: {`,
    );
  });
});
