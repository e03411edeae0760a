import { describe, expect, it } from 'vitest';
import { newRequestId } from './new-request-id.js';

describe('newRequestId', () => {
  it('is req_ and 32 hex digits, different every time, past a refill of the pool', () => {
    const ids = new Set<string>();
    for (let index = 0; index < 1_000; index++) {
      const id = newRequestId();
      expect(id).toMatch(/^req_[0-9a-f]{32}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(1_000);
  });
});
