/**
 * The label values of the console's metrics, as pure functions of what the server knows about a
 * request or a Kubernetes call. Every value comes from a bounded set: route patterns (never raw
 * paths), status classes, Kubernetes verbs and results. No user name, key value, namespace or
 * object name ever becomes a label.
 */

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `GET`…`OPTIONS` as themselves; any other method the HTTP parser accepted as `other`. */
export function methodLabel(method: string): string {
  return HTTP_METHODS.has(method) ? method : 'other';
}

/**
 * The route pattern fastify matched (`/api/v1/accounts/:namespace/keys`); a request no route
 * matched is `api_unmatched` under `/api/` and `web` elsewhere (the web app's files and pages).
 */
export function routeLabel(pattern: string | undefined, url: string): string {
  if (pattern !== undefined && pattern !== '') return pattern;
  return url.startsWith('/api/') ? 'api_unmatched' : 'web';
}

export function statusClass(statusCode: number): string {
  const hundreds = Math.floor(statusCode / 100);
  return hundreds >= 1 && hundreds <= 5 ? `${hundreds}xx` : 'other';
}

export type SignInMethod = 'local' | 'oidc';
export type SignInResult = 'success' | 'bad_credentials' | 'rate_limited' | 'oidc_error' | 'error';

/** Every method and result a sign-in is counted under (the counter starts them at zero). */
export const SIGN_IN_OUTCOMES: readonly { method: SignInMethod; result: SignInResult }[] = [
  { method: 'local', result: 'success' },
  { method: 'local', result: 'bad_credentials' },
  { method: 'local', result: 'rate_limited' },
  { method: 'local', result: 'error' },
  { method: 'oidc', result: 'success' },
  { method: 'oidc', result: 'oidc_error' },
];

const LOCAL_SIGN_IN = '/api/v1/session';
const OIDC_LOGIN = '/api/v1/auth/oidc/login';
const OIDC_CALLBACK = '/api/v1/auth/oidc/callback';

/**
 * What a sign-in answer means, or undefined when the request was no sign-in. Local
 * (`POST /session`): 2xx success, 401 bad_credentials, 429 rate_limited, anything else error
 * (malformed, origin refused, users Secret or sessions unavailable). OIDC: the callback's redirect
 * is a success; any other answer of the callback, or of the login route (which redirects to the
 * provider when it works), is oidc_error.
 */
export function signInOutcome(request: {
  method: string;
  route: string;
  statusCode: number;
}): { method: SignInMethod; result: SignInResult } | undefined {
  const { method, route, statusCode } = request;
  if (method === 'POST' && route === LOCAL_SIGN_IN) {
    if (statusCode >= 200 && statusCode < 300) return { method: 'local', result: 'success' };
    if (statusCode === 401) return { method: 'local', result: 'bad_credentials' };
    if (statusCode === 429) return { method: 'local', result: 'rate_limited' };
    return { method: 'local', result: 'error' };
  }
  if (method === 'GET' && route === OIDC_CALLBACK) {
    return { method: 'oidc', result: statusCode === 302 ? 'success' : 'oidc_error' };
  }
  if (method === 'GET' && route === OIDC_LOGIN && statusCode !== 302) {
    return { method: 'oidc', result: 'oidc_error' };
  }
  return undefined;
}

const KUBE_VERBS: Record<string, string> = {
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * The resource and whether one object is named, from a Kubernetes API path:
 * `/api/v1/namespaces/a/secrets/b` is `secrets`, named; `/apis/g/v1/groups` is `groups`, a
 * collection; `/api/v1/namespaces/a` is the namespace `a`.
 */
function parseKubePath(path: string): { resource: string; named: boolean } {
  const segments = (path.split('?')[0] ?? '').split('/').filter((segment) => segment !== '');
  const rest = segments[0] === 'api' ? segments.slice(2) : segments.slice(3);
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    return { resource: rest[2] ?? '', named: rest.length >= 4 };
  }
  return { resource: rest[0] ?? '', named: rest.length >= 2 };
}

/** The Kubernetes verb of a call: get or list for GET, create, update, patch, delete. */
export function kubeVerb(method: string, path: string): string {
  if (method === 'GET') return parseKubePath(path).named ? 'get' : 'list';
  return KUBE_VERBS[method] ?? 'other';
}

/** The resource's plural name (`apikeys`, `secrets`, `selfsubjectaccessreviews`). */
export function kubeResource(path: string): string {
  const { resource } = parseKubePath(path);
  return /^[a-z][a-z0-9.-]{0,62}$/.test(resource) ? resource : 'other';
}

/** How a call ended: status 0 is a transport failure (unreachable, timed out). */
export function kubeResult(status: number): string {
  if (status === 0) return 'unreachable';
  if (status >= 200 && status < 300) return 'success';
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 422:
      return 'invalid';
    case 429:
      return 'throttled';
    default:
      return status >= 500 ? 'server_error' : 'client_error';
  }
}
