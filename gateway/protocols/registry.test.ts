import { describe, expect, it } from 'vitest';
import {
  isAnthropicErrorBody,
  renderAnthropicError,
  renderAnthropicStreamError,
} from './anthropic-messages/render-anthropic-error.js';
import {
  isGoogleErrorBody,
  renderGoogleError,
  renderGoogleStreamError,
} from './google/render-google-error.js';
import {
  isOpenAIErrorBody,
  renderOpenAIError,
  renderOpenAIResponsesStreamError,
} from './openai-responses/render-openai-error.js';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/error-catalogue.js';
import { GatewayError } from '../errors/gateway-error.js';
import { renderErrorBody } from '../errors/render-error.js';

const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

describe.each(codes)('%s', (code) => {
  const error = new GatewayError(code);

  it('renders Anthropic with the code in the message', () => {
    const body = renderAnthropicError(error);
    expect(body.type).toBe('error');
    expect(body.error.message.startsWith(`[${code}] `)).toBe(true);
    expect(body.error.type).toMatch(/_error$|^request_too_large$/);
  });

  it('renders OpenAI with the code in `code`', () => {
    const body = renderOpenAIError(error);
    expect(body.error).toMatchObject({ code, param: null });
    expect(body.error.message).toBe(error.message);
  });

  it('renders Google with the HTTP status and a canonical status', () => {
    const body = renderGoogleError(error);
    expect(body.error.code).toBe(error.statusCode);
    expect(body.error.message).toContain(code);
    expect(body.error.status).toMatch(/^[A-Z_]+$/);
  });
});

describe('protocol error types', () => {
  it.each([
    ['TG_KEY_MISSING', 'authentication_error', 'invalid_request_error', 'UNAUTHENTICATED'],
    ['TG_KEY_EXPIRED', 'permission_error', 'permission_error', 'PERMISSION_DENIED'],
    ['TG_WINDOW_EXHAUSTED', 'rate_limit_error', 'rate_limit_error', 'RESOURCE_EXHAUSTED'],
    ['TG_QUOTA_EXHAUSTED', 'rate_limit_error', 'insufficient_quota', 'RESOURCE_EXHAUSTED'],
    ['TG_STORE_UNAVAILABLE', 'api_error', 'service_unavailable_error', 'UNAVAILABLE'],
    ['TG_UPSTREAM_TIMEOUT', 'timeout_error', 'server_error', 'DEADLINE_EXCEEDED'],
    ['TG_NOT_IMPLEMENTED', 'api_error', 'server_error', 'UNIMPLEMENTED'],
    ['TG_ROUTE_NOT_FOUND', 'not_found_error', 'invalid_request_error', 'NOT_FOUND'],
  ] as const)('%s', (code, anthropic, openai, google) => {
    const error = new GatewayError(code);
    expect(renderAnthropicError(error).error.type).toBe(anthropic);
    expect(renderOpenAIError(error).error.type).toBe(openai);
    expect(renderGoogleError(error).error.status).toBe(google);
  });
});

describe('renderErrorBody', () => {
  it('picks the renderer by shape', () => {
    const error = new GatewayError('TG_KEY_MISSING');
    expect(renderErrorBody('anthropic', error)).toEqual(renderAnthropicError(error));
    expect(renderErrorBody('openai', error)).toEqual(renderOpenAIError(error));
    expect(renderErrorBody('google', error)).toEqual(renderGoogleError(error));
  });
});

describe('upstream error body checks', () => {
  const error = new GatewayError('TG_UPSTREAM_ERROR');
  const bodies = {
    anthropic: renderAnthropicError(error),
    openai: renderOpenAIError(error),
    google: renderGoogleError(error),
  };
  it.each([
    ['anthropic', isAnthropicErrorBody],
    ['openai', isOpenAIErrorBody],
    ['google', isGoogleErrorBody],
  ] as const)('%s accepts only its own shape', (shape, check) => {
    for (const [other, body] of Object.entries(bodies)) expect(check(body)).toBe(other === shape);
    expect(check('<html>502</html>')).toBe(false);
    expect(check(null)).toBe(false);
  });
});

describe('stream error frames', () => {
  const error = new GatewayError('TG_UPSTREAM_TIMEOUT');
  const dataOf = (frame: string) =>
    JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? 'null') as unknown;

  it('Anthropic: an `event: error` frame with the error body', () => {
    const frame = renderAnthropicStreamError(error);
    expect(frame.startsWith('event: error\n')).toBe(true);
    expect(frame.endsWith('\n\n')).toBe(true);
    expect(dataOf(frame)).toEqual(renderAnthropicError(error));
  });

  it('OpenAI Responses: a flat `error` event', () => {
    const frame = renderOpenAIResponsesStreamError(error);
    expect(frame.startsWith('event: error\n')).toBe(true);
    expect(dataOf(frame)).toEqual({
      type: 'error',
      code: 'TG_UPSTREAM_TIMEOUT',
      message: error.message,
      param: null,
    });
  });

  it('Gemini: a data-only chunk with the error body', () => {
    const frame = renderGoogleStreamError(error);
    expect(frame.startsWith('data: ')).toBe(true);
    expect(dataOf(frame)).toEqual(renderGoogleError(error));
  });
});
