import { describe, expect, it } from 'vitest';
import { countTokensUnavailable, localTokenEstimate } from './estimate-tokens-locally.js';

const reply = (status: number, body: unknown, type = '') => ({
  status,
  headers: type === '' ? {} : { 'x-amzn-errortype': type },
  bytes: Buffer.from(JSON.stringify(body)),
});

describe('countTokensUnavailable', () => {
  it('is true where the operation or the model cannot count', () => {
    expect(countTokensUnavailable(reply(404, { message: 'Not Found' }))).toBe(true);
    expect(
      countTokensUnavailable(reply(400, { message: 'x' }, 'UnknownOperationException:http://')),
    ).toBe(true);
    expect(
      countTokensUnavailable(
        reply(400, { message: "The provided model doesn't support counting tokens." }),
      ),
    ).toBe(true);
  });

  it('leaves every other refusal to stand', () => {
    expect(countTokensUnavailable(reply(400, { message: 'messages: field required' }))).toBe(false);
    expect(countTokensUnavailable(reply(403, { message: 'not authorized' }))).toBe(false);
    expect(countTokensUnavailable(reply(429, { message: 'Too many requests' }))).toBe(false);
  });
});

describe('localTokenEstimate', () => {
  it('answers about four bytes per token, at least one', () => {
    expect(JSON.parse(localTokenEstimate(Buffer.alloc(401)).toString())).toEqual({
      input_tokens: 101,
    });
    expect(JSON.parse(localTokenEstimate(Buffer.alloc(0)).toString())).toEqual({
      input_tokens: 1,
    });
  });
});
