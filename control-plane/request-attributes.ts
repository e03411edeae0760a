/**
 * Pure: the authorization attributes of an HTTP request, as the API server's `RequestInfoFactory`
 * derives them (verb from the method, list/watch/deletecollection without a name, namespace,
 * resource, subresource, name; everything outside `/api` and `/apis/<group>` is a non-resource
 * path whose verb is the lower-case method).
 */
export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  extra: Record<string, string[]>;
}

export interface ResourceAttributes {
  resourceRequest: true;
  verb: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface NonResourceAttributes {
  resourceRequest: false;
  verb: string;
  path: string;
}

export type RequestAttributes = ResourceAttributes | NonResourceAttributes;

const specialVerbs = new Set(['proxy', 'watch']);
const namespaceSubresources = new Set(['status', 'finalize']);
const methodVerbs: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** `metadata.name=x` (or `==`) as the only term of a field selector names the object. */
function exactName(fieldSelector: string | null): string {
  if (fieldSelector === null) return '';
  const terms = fieldSelector.split(',').filter((term) => term.trim() !== '');
  for (const term of terms) {
    const match = /^\s*metadata\.name\s*==?\s*([^\s]*)\s*$/.exec(term);
    const name = match?.[1];
    if (name !== undefined && name !== '' && !['.', '..'].includes(name) && !/[/%]/.test(name)) {
      return name;
    }
  }
  return '';
}

export function requestAttributes(request: {
  method: string;
  pathname: string;
  query: URLSearchParams;
}): RequestAttributes {
  const nonResource: NonResourceAttributes = {
    resourceRequest: false,
    verb: request.method.toLowerCase(),
    path: request.pathname,
  };
  let parts: string[];
  try {
    parts = request.pathname
      .split('/')
      .filter((part) => part !== '')
      .map(decodeURIComponent);
  } catch {
    return nonResource;
  }
  if (parts.length < 3 || !['api', 'apis'].includes(parts[0] ?? '')) return nonResource;
  let apiGroup = '';
  if (parts[0] === 'apis') {
    if (parts.length < 4) return nonResource;
    apiGroup = parts[1] ?? '';
    parts = parts.slice(2);
  } else {
    parts = parts.slice(1);
  }
  const apiVersion = parts[0] ?? '';
  parts = parts.slice(1);
  let verb = methodVerbs[request.method.toUpperCase()] ?? '';
  let viaPrefix = false;
  if (specialVerbs.has(parts[0] ?? '') && parts.length >= 2) {
    verb = parts[0] ?? '';
    parts = parts.slice(1);
    viaPrefix = true;
  }
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1] ?? '';
    if (parts.length > 2 && !namespaceSubresources.has(parts[2] ?? '')) parts = parts.slice(2);
  }
  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource = parts.length >= 3 && !viaPrefix ? (parts[2] ?? '') : '';
  if (name === '' && verb === 'get') {
    const watch = request.query.get('watch');
    verb = watch === 'true' || watch === '1' ? 'watch' : 'list';
    name = exactName(request.query.get('fieldSelector'));
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    resourceRequest: true,
    verb,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
  };
}
