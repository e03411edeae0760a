import { describe, expect, it } from 'vitest';
import { planWebsocketMessage, type ConnectionHistory } from './plan-websocket-message.js';

const user = (text: string) => ({ type: 'message', role: 'user', content: text });
const history: ConnectionHistory = {
  responseId: 'resp_1',
  items: [user('first'), { type: 'message', role: 'assistant', content: 'answer' }],
};

function body(plan: ReturnType<typeof planWebsocketMessage>): Record<string, unknown> {
  if (plan.kind !== 'turn') throw new Error(`not a turn: ${plan.kind}`);
  return JSON.parse(plan.body) as Record<string, unknown>;
}

describe('planWebsocketMessage', () => {
  it('turns response.create into a streamed HTTP body without the socket-only fields', () => {
    const message = {
      type: 'response.create',
      model: 'gpt-5.4',
      input: [user('hi')],
      tools: [],
      generate: true,
      background: false,
      stream: false,
    };
    expect(body(planWebsocketMessage(JSON.stringify(message), null))).toEqual({
      model: 'gpt-5.4',
      input: [user('hi')],
      tools: [],
      stream: true,
    });
  });

  it('expands previous_response_id from the connection history', () => {
    const message = {
      type: 'response.create',
      model: 'm',
      previous_response_id: 'resp_1',
      input: 'next',
    };
    const planned = body(planWebsocketMessage(JSON.stringify(message), history));
    expect(planned.input).toEqual([...history.items, user('next')]);
    expect(planned.previous_response_id).toBeUndefined();
  });

  it('refuses a previous_response_id that is not the last response', () => {
    const message = { type: 'response.create', previous_response_id: 'resp_0', input: [] };
    for (const known of [history, null]) {
      const plan = planWebsocketMessage(JSON.stringify(message), known);
      expect(plan.kind === 'refused' && plan.error.code).toBe(
        'TG_WEBSOCKET_PREVIOUS_RESPONSE_NOT_FOUND',
      );
    }
  });

  it('plans a warm-up for generate: false, with the expanded input', () => {
    const message = { type: 'response.create', model: 'm', generate: false, input: [user('x')] };
    expect(planWebsocketMessage(JSON.stringify(message), null)).toEqual({
      kind: 'warmup',
      model: 'm',
      input: [user('x')],
    });
  });

  it.each([
    ['not JSON', '{"type":'],
    ['an array', '[]'],
    ['another type', '{"type":"response.cancel"}'],
    ['a bad input', '{"type":"response.create","input":42}'],
  ])('refuses %s as a bad request', (_name, text) => {
    const plan = planWebsocketMessage(text, null);
    expect(plan.kind === 'refused' && plan.error.code).toBe('TG_BAD_REQUEST');
  });
});
