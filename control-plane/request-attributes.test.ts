import { describe, expect, it } from 'vitest';
import { requestAttributes } from './request-attributes.js';

function attributes(method: string, url: string) {
  const parsed = new URL(url, 'https://local');
  return requestAttributes({ method, pathname: parsed.pathname, query: parsed.searchParams });
}

describe('request attributes (the API server RequestInfoFactory)', () => {
  it.each([
    [
      'GET',
      '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys',
      'list',
      'team-a',
      'apikeys',
      '',
      '',
    ],
    [
      'GET',
      '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys?watch=true',
      'watch',
      'team-a',
      'apikeys',
      '',
      '',
    ],
    [
      'GET',
      '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys?watch=1&fieldSelector=metadata.name%3Dk1',
      'watch',
      'team-a',
      'apikeys',
      'k1',
      '',
    ],
    [
      'GET',
      '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys/k1',
      'get',
      'team-a',
      'apikeys',
      'k1',
      '',
    ],
    [
      'PUT',
      '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys/k1/status',
      'update',
      'team-a',
      'apikeys',
      'k1',
      'status',
    ],
    ['POST', '/api/v1/namespaces/team-a/secrets', 'create', 'team-a', 'secrets', '', ''],
    ['PATCH', '/apis/tollgate.dev/v1alpha1/groups/g', 'patch', '', 'groups', 'g', ''],
    [
      'DELETE',
      '/apis/tollgate.dev/v1alpha1/namespaces/team-a/apikeys',
      'deletecollection',
      'team-a',
      'apikeys',
      '',
      '',
    ],
    ['DELETE', '/api/v1/namespaces/team-a', 'delete', 'team-a', 'namespaces', 'team-a', ''],
    [
      'PUT',
      '/api/v1/namespaces/team-a/finalize',
      'update',
      'team-a',
      'namespaces',
      'team-a',
      'finalize',
    ],
    ['GET', '/api/v1/watch/namespaces/team-a/secrets', 'watch', 'team-a', 'secrets', '', ''],
  ])('%s %s', (method, url, verb, namespace, resource, name, subresource) => {
    expect(attributes(method, url)).toMatchObject({
      resourceRequest: true,
      verb,
      namespace,
      resource,
      name,
      subresource,
    });
  });

  it('reads the API group, and none for the core group', () => {
    expect(attributes('GET', '/apis/tollgate.dev/v1alpha1/groups')).toMatchObject({
      apiGroup: 'tollgate.dev',
      apiVersion: 'v1alpha1',
    });
    expect(attributes('GET', '/api/v1/secrets')).toMatchObject({ apiGroup: '', apiVersion: 'v1' });
  });

  it.each([
    '/api',
    '/api/v1',
    '/apis',
    '/apis/tollgate.dev',
    '/apis/tollgate.dev/v1alpha1',
    '/version',
    '/openapi/v3/apis/tollgate.dev/v1alpha1',
  ])('treats %s as a non-resource path with the method as verb', (path) => {
    expect(attributes('GET', path)).toEqual({ resourceRequest: false, verb: 'get', path });
  });
});
