/**
 * The fake's Responses WebSocket, with the `ws` client: the key checked before the upgrade, a
 * turn's events as messages (the HTTP stream's events, no SSE framing), chaining with
 * `previous_response_id` (the conversation as the answer's input), an unknown id refused, a
 * warm-up, the path's behaviour (error status as the error event).
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  openResponsesSocket,
  refusedUpgrade,
} from '../../test/support/responses-websocket-client.js';
import { startFakeProvider, type FakeProvider } from './start-fake-provider.js';

let fake: FakeProvider;
const key = { authorization: 'Bearer fake-upstream-key' };
const user = (text: string) => ({ type: 'message', role: 'user', content: text });

beforeAll(async () => {
  fake = await startFakeProvider({ keepRequests: 10 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

it('refuses a wrong key before the upgrade with the OpenAI 401', async () => {
  const refused = await refusedUpgrade(fake.url, { authorization: 'Bearer wrong' });
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('invalid_api_key');
});

it('answers turns as messages and chains them on the connection', async () => {
  const client = await openResponsesSocket(fake.url, key);
  const first = await client.turn({
    type: 'response.create',
    model: 'gpt-5.4',
    input: [user('hi')],
  });
  expect(first.map((event) => event.type)).toEqual([
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.delta',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ]);
  const id = (first.at(-1) as { response: { id: string } }).response.id;
  const second = await client.turn({
    type: 'response.create',
    model: 'gpt-5.4',
    previous_response_id: id,
    input: [user('again')],
  });
  expect(second.at(-1)?.type).toBe('response.completed');
  const chained = fake.requests.at(-1)?.body as { input: { role: string }[]; stream: boolean };
  expect(chained.input.map((item) => item.role)).toEqual(['user', 'assistant', 'user']);
  expect(chained.stream).toBe(true);

  const unknown = await client.turn({
    type: 'response.create',
    model: 'gpt-5.4',
    previous_response_id: 'resp_elsewhere',
    input: [],
  });
  expect(unknown).toHaveLength(1);
  expect(unknown[0]).toMatchObject({
    type: 'error',
    status: 400,
    error: { code: 'previous_response_not_found' },
  });
  client.socket.close();
});

it('warms up without output, and sends an error status as the error event', async () => {
  const client = await openResponsesSocket(fake.url, key);
  const warmup = await client.turn({ type: 'response.create', model: 'm', generate: false });
  expect(warmup.map((event) => event.type)).toEqual(['response.created', 'response.completed']);
  fake.setBehaviour({ status: 429 }, '/v1/responses');
  const refused = await client.turn({ type: 'response.create', model: 'm', input: [user('x')] });
  expect(refused).toEqual([expect.objectContaining({ type: 'error', status: 429 })]);
  client.socket.close();
});
