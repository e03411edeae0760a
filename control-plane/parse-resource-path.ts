/** Pure: splits a resource URL into group, version, namespace, plural, name and subresource. */
export interface ResourcePath {
  group: string;
  version: string;
  namespace: string | undefined;
  plural: string;
  name: string | undefined;
  subresource: string | undefined;
}

export function parseResourcePath(pathname: string): ResourcePath | undefined {
  const parts = pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
  let group: string;
  let version: string | undefined;
  let rest: string[];
  if (parts[0] === 'api') {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    group = parts[1] ?? '';
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  if (version === undefined || rest.length === 0) return undefined;
  let namespace: string | undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && rest[2] === 'status')
  ) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  if (plural === undefined || extra.length > 0) return undefined;
  return { group, version, namespace, plural, name, subresource };
}
