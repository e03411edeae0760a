import { describe, expect, it } from 'vitest';
import { azureOrigin, mapAzurePath } from './map-azure-path.js';
import { entraTokenURL } from './request-entra-token.js';

describe('mapAzurePath', () => {
  it('puts first-party paths under /openai on the v1 API, query kept', () => {
    expect(mapAzurePath({ path: '/v1/responses', model: 'gpt-5', apiVersion: null })).toBe(
      '/openai/v1/responses',
    );
    expect(mapAzurePath({ path: '/v1/responses/compact?x=1', model: null, apiVersion: null })).toBe(
      '/openai/v1/responses/compact?x=1',
    );
  });

  it('sends chat completions to the deployment with api-version', () => {
    expect(
      mapAzurePath({ path: '/v1/chat/completions', model: 'gpt 5/x', apiVersion: '2024-10-21' }),
    ).toBe('/openai/deployments/gpt%205%2Fx/chat/completions?api-version=2024-10-21');
    expect(() =>
      mapAzurePath({ path: '/v1/chat/completions', model: null, apiVersion: '2024-10-21' }),
    ).toThrow('deployment name');
  });

  it('sends other paths to /openai/<rest> with api-version appended to their query', () => {
    expect(
      mapAzurePath({ path: '/v1/responses?a=b', model: 'gpt-5', apiVersion: '2025-04-01-preview' }),
    ).toBe('/openai/responses?a=b&api-version=2025-04-01-preview');
  });

  it('derives the origin and the Entra token URL', () => {
    expect(azureOrigin('https://r.openai.azure.com/')).toBe('https://r.openai.azure.com');
    expect(entraTokenURL(null, 'tenant')).toBe(
      'https://login.microsoftonline.com/tenant/oauth2/v2.0/token',
    );
    expect(entraTokenURL('http://127.0.0.1:9/', 't')).toBe(
      'http://127.0.0.1:9/t/oauth2/v2.0/token',
    );
  });
});
