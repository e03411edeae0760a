import { describe, expect, it } from 'vitest';
import { chainUpstreamMessage } from './chain-upstream-message.js';

const user = (text: string) => ({ type: 'message', role: 'user', content: text });
const answer = {
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'a' }],
};
const body = (input: unknown) =>
  Buffer.from(JSON.stringify({ model: 'm', store: false, stream: true, input, tools: [] }));

function sent(text: string | undefined): Record<string, unknown> {
  return JSON.parse(text ?? 'null') as Record<string, unknown>;
}

describe('chainUpstreamMessage', () => {
  it('sends the whole input unchained when the socket holds no response', () => {
    const message = chainUpstreamMessage(body([user('hi')]), null);
    expect(sent(message?.text)).toEqual({
      type: 'response.create',
      model: 'm',
      store: false,
      tools: [],
      input: [user('hi')],
    });
    expect(message?.unchained).toBeNull();
    expect(message?.items).toEqual([JSON.stringify(user('hi'))]);
  });

  it("chains to the socket's last response when it prefixes the input, sending the rest", () => {
    const chain = { id: 'resp_1', items: [user('hi'), answer].map((item) => JSON.stringify(item)) };
    const message = chainUpstreamMessage(body([user('hi'), answer, user('next')]), chain);
    expect(sent(message?.text)).toMatchObject({
      previous_response_id: 'resp_1',
      input: [user('next')],
    });
    expect(sent(message?.unchained ?? undefined)).toMatchObject({
      input: [user('hi'), answer, user('next')],
    });
    expect(sent(message?.unchained ?? undefined).previous_response_id).toBeUndefined();
    expect(message?.items).toHaveLength(3);
  });

  it('sends the whole input when the chain is not a prefix', () => {
    const chain = { id: 'resp_1', items: [JSON.stringify(user('other'))] };
    const message = chainUpstreamMessage(body([user('hi'), user('next')]), chain);
    expect(sent(message?.text).previous_response_id).toBeUndefined();
    expect(sent(message?.text).input).toHaveLength(2);
    expect(message?.unchained).toBeNull();
  });

  it('reads a string input as one user message, and refuses what is not a Responses body', () => {
    expect(sent(chainUpstreamMessage(body('hi'), null)?.text).input).toEqual([user('hi')]);
    expect(chainUpstreamMessage(Buffer.from('not json'), null)).toBeNull();
    expect(chainUpstreamMessage(Buffer.from('[]'), null)).toBeNull();
    expect(chainUpstreamMessage(body(42), null)).toBeNull();
  });
});
