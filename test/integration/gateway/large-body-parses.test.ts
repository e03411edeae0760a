/**
 * A burst of calls with large bodies does not hold the event loop: the gateway parses a large body
 * in a turn of its own (gateway/stages/admit/pace-large-parses.ts), so the I/O of other calls runs
 * between two of them. Structural, not timed: the calls' bodies are all there at once (`inject`),
 * a callback counts the event loop's turns, and each large `JSON.parse` notes the count it ran at.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  env,
  key,
  messagesReply,
  putUpstream,
  tinyUpstream,
  useForwardingGateway,
} from './forwarding-setup.js';

useForwardingGateway();

const REPLY = messagesReply('ok', { input_tokens: 250_000, output_tokens: 1 });

const large = (index: number): string =>
  JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 8,
    messages: [{ role: 'user', content: `${index} ${'x'.repeat(1_000_000)}` }],
  });

describe('large request bodies', () => {
  it('are parsed one turn of the event loop at a time', async () => {
    const upstream = await tinyUpstream((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(REPLY);
      });
    });
    await putUpstream({ name: 'large-bodies', platform: 'Anthropic', baseURL: upstream });
    const apiKey = await key({ upstreams: [{ name: 'large-bodies', weight: 1, priority: 0 }] });
    const bodies = [0, 1, 2, 3].map(large);

    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const parsedAtTurn: number[] = [];
    const parse = JSON.parse;
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver) => {
      if (text.length > 500_000) parsedAtTurn.push(turns);
      return parse(text, reviver) as unknown;
    });
    try {
      const responses = await Promise.all(
        bodies.map((payload) =>
          env.app.inject({
            method: 'POST',
            url: '/v1/messages',
            headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
            payload,
          }),
        ),
      );
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    } finally {
      spy.mockRestore();
      counting = false;
    }
    expect(parsedAtTurn).toHaveLength(4);
    // Two large parses never share a turn: the loop went round between them.
    expect(new Set(parsedAtTurn).size, `turns of the parses: ${parsedAtTurn.join(', ')}`).toBe(4);
  });
});
