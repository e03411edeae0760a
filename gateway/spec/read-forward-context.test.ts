import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { forwardedQuery, readForwardContext } from './read-forward-context.js';

describe('readForwardContext', () => {
  it('splits path and query and keeps the raw bytes', () => {
    const body = Buffer.from('{"model":"m",  "x":1}');
    const context = readForwardContext('/v1/messages?beta=true', body);
    expect(context).toMatchObject({ path: '/v1/messages', query: 'beta=true', body });
    expect(context.json).toEqual({ model: 'm', x: 1 });
  });

  it('treats an empty body as none', () => {
    expect(readForwardContext('/v1/x', Buffer.alloc(0))).toMatchObject({
      body: null,
      json: undefined,
    });
  });

  it('refuses bad JSON with TG_BAD_REQUEST', () => {
    const error = (() => {
      try {
        readForwardContext('/v1/x', Buffer.from('{nope'));
        return null;
      } catch (caught) {
        return caught;
      }
    })();
    expect(GatewayError.is(error) && error.code).toBe('TG_BAD_REQUEST');
  });

  it.each([
    ['alt=sse&key=secret', 'alt=sse'],
    ['key=secret', ''],
    ['alt=sse', 'alt=sse'],
    ['', ''],
  ])('forwards %j as %j', (query, expected) => {
    expect(forwardedQuery(query)).toBe(expected);
  });
});
