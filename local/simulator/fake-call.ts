/** One request as the answer functions see it: the recording, the behaviour and the writer. */
import type { FakeBehaviour, RecordedRequest } from './fake-behaviour.js';
import type { FakeWriteOptions } from './write-fake-response.js';

export interface FakeCall {
  request: RecordedRequest;
  behaviour: FakeBehaviour;
  bodyBytes: number;
  write: FakeWriteOptions;
}

export function bodyFields(call: FakeCall): Record<string, unknown> {
  const { body } = call.request;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}
