import { describe, expect, it } from 'vitest';
import {
  kubeResource,
  kubeResult,
  kubeVerb,
  methodLabel,
  routeLabel,
  signInOutcome,
  statusClass,
} from './console-metric-labels.js';

describe('request labels', () => {
  it('name the matched route pattern, never the raw path', () => {
    expect(
      routeLabel('/api/v1/accounts/:namespace/keys/:name', '/api/v1/accounts/team-a/keys/alice'),
    ).toBe('/api/v1/accounts/:namespace/keys/:name');
    expect(routeLabel(undefined, '/api/v1/accounts/team-a/nothing?x=1')).toBe('api_unmatched');
    expect(routeLabel(undefined, '/keys/team-a/alice')).toBe('web');
    expect(routeLabel('', '/assets/index.js')).toBe('web');
  });

  it('keep methods and status classes to bounded sets', () => {
    expect(methodLabel('PATCH')).toBe('PATCH');
    expect(methodLabel('PROPFIND')).toBe('other');
    expect([200, 302, 404, 429, 502, 99].map(statusClass)).toEqual([
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      'other',
    ]);
  });
});

describe('sign-in outcomes', () => {
  const local = (statusCode: number) =>
    signInOutcome({ method: 'POST', route: '/api/v1/session', statusCode });
  const oidc = (route: string, statusCode: number) =>
    signInOutcome({ method: 'GET', route: `/api/v1/auth/oidc/${route}`, statusCode });

  it('classify local sign-ins by their answer', () => {
    expect(local(200)).toEqual({ method: 'local', result: 'success' });
    expect(local(401)).toEqual({ method: 'local', result: 'bad_credentials' });
    expect(local(429)).toEqual({ method: 'local', result: 'rate_limited' });
    expect(local(400)).toEqual({ method: 'local', result: 'error' });
    expect(local(502)).toEqual({ method: 'local', result: 'error' });
  });

  it('count the OIDC callback and a login that fails to start', () => {
    expect(oidc('callback', 302)).toEqual({ method: 'oidc', result: 'success' });
    expect(oidc('callback', 401)).toEqual({ method: 'oidc', result: 'oidc_error' });
    expect(oidc('login', 500)).toEqual({ method: 'oidc', result: 'oidc_error' });
    expect(oidc('login', 302)).toBeUndefined();
  });

  it('ignore everything else', () => {
    expect(signInOutcome({ method: 'DELETE', route: '/api/v1/session', statusCode: 200 })).toBe(
      undefined,
    );
    expect(signInOutcome({ method: 'GET', route: '/api/v1/me', statusCode: 401 })).toBe(undefined);
  });
});

describe('Kubernetes call labels', () => {
  it.each([
    ['GET', '/api/v1/namespaces/tollgate-system/secrets/tollgate-console-users', 'get', 'secrets'],
    ['GET', '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys', 'list', 'apikeys'],
    ['GET', '/apis/tollgate.dev/v1alpha1/groups', 'list', 'groups'],
    ['GET', '/apis/tollgate.dev/v1alpha1/groups/anthropic', 'get', 'groups'],
    ['GET', '/api/v1/namespaces', 'list', 'namespaces'],
    ['GET', '/api/v1/namespaces/team-a', 'get', 'namespaces'],
    [
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      'create',
      'selfsubjectaccessreviews',
    ],
    ['POST', '/api/v1/namespaces/team-a/events', 'create', 'events'],
    ['PUT', '/apis/tollgate.dev/v1alpha1/upstreams/u', 'update', 'upstreams'],
    ['PATCH', '/apis/tollgate.dev/v1alpha1/namespaces/a/apikeys/k', 'patch', 'apikeys'],
    ['DELETE', '/api/v1/namespaces/a/secrets/s', 'delete', 'secrets'],
  ])('%s %s is %s %s', (method, path, verb, resource) => {
    expect(kubeVerb(method, path)).toBe(verb);
    expect(kubeResource(path)).toBe(resource);
  });

  it('name no resource it cannot read as one', () => {
    expect(kubeResource('/api/v1/namespaces/a/Not%20A%20Resource')).toBe('other');
    expect(kubeResource('/')).toBe('other');
  });

  it('classify results by status, 0 being no answer', () => {
    expect([0, 200, 201, 401, 403, 404, 409, 422, 429, 400, 500, 503].map(kubeResult)).toEqual([
      'unreachable',
      'success',
      'success',
      'unauthorized',
      'forbidden',
      'not_found',
      'conflict',
      'invalid',
      'throttled',
      'client_error',
      'server_error',
      'server_error',
    ]);
  });
});
