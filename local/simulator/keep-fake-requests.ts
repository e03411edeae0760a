/**
 * The fake provider's request log: the latest `limit` requests, for tests that check what the
 * gateway sent upstream. A limit of 0 keeps nothing, and reading such a log throws, so a test that
 * forgot to ask for one fails with a clear message instead of seeing no requests.
 */
import type { RecordedRequest } from './fake-behaviour.js';

export interface RequestLog {
  add(request: RecordedRequest): void;
  /** The kept requests, oldest first. */
  read(): readonly RecordedRequest[];
  clear(): void;
}

export function createRequestLog(limit: number): RequestLog {
  if (!Number.isInteger(limit) || limit < 0) {
    throw new Error(`keepRequests must be a whole number of requests, got ${limit}`);
  }
  const kept: RecordedRequest[] = [];
  return {
    add(request) {
      if (limit === 0) return;
      if (kept.length === limit) kept.shift();
      kept.push(request);
    },
    read() {
      if (limit === 0) {
        throw new Error('this fake provider keeps no requests: start it with keepRequests');
      }
      return kept;
    },
    clear() {
      kept.length = 0;
    },
  };
}
