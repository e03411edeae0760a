import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from './fake-behaviour.js';
import { createRequestLog } from './keep-fake-requests.js';

function request(path: string): RecordedRequest {
  return { method: 'POST', path, query: {}, headers: {}, body: null, rawBody: '' };
}

describe('createRequestLog', () => {
  it('keeps nothing by default, and says so when read', () => {
    const log = createRequestLog(0);
    log.add(request('/v1/messages'));
    expect(() => log.read()).toThrow(/keeps no requests: start it with keepRequests/);
  });

  it('keeps the latest requests up to its limit, oldest first', () => {
    const log = createRequestLog(2);
    for (const path of ['/a', '/b', '/c']) log.add(request(path));
    expect(log.read().map((kept) => kept.path)).toEqual(['/b', '/c']);
    log.clear();
    expect(log.read()).toEqual([]);
  });

  it('refuses a limit that is not a whole number of requests', () => {
    expect(() => createRequestLog(-1)).toThrow(/keepRequests/);
    expect(() => createRequestLog(1.5)).toThrow(/keepRequests/);
  });
});
