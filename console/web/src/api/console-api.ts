/**
 * The console API client (/api/v1): JSON calls with the session cookie, the CSRF token on
 * state-changing calls, and the server's error body as an `ApiError` (code, plain message, field).
 */
import type { z } from 'zod';
import type { AuthMethods, Me } from '../../../server/auth/session-schemas.js';
import type { clientConfigSchema } from '../../../server/client-config/client-config-schema.js';
import type {
  createdKeySchema,
  createKeySchema,
  editKeySchema,
  KeyView,
} from '../../../server/keys/key-schemas.js';
import type { accountViewSchema } from '../../../server/routes/account-schemas.js';
import type { adminListSchema } from '../../../server/routes/admin-schemas.js';
import type { KeySummary } from '../../../server/usage/usage-schemas.js';

export type { AuthMethods, KeyView, Me };
/** A namespace of GET /accounts, with the fields the app reads. */
export type AccountView = Pick<
  z.infer<typeof accountViewSchema>,
  'namespace' | 'displayName' | 'creditUSD' | 'spentUSD' | 'balanceUSD' | 'hasAccount'
>;
/** Per tool: files, environment variables, shell lines, a try command, a CC Switch link. */
export type ClientConfig = z.infer<typeof clientConfigSchema>;
/** What POST …/keys accepts (limits as text, addresses as lists). */
export type CreateKeyBody = z.input<typeof createKeySchema>;
/** What PATCH …/keys/{name} accepts: `generation` is the one the form was filled from. */
export type EditKeyBody = z.input<typeof editKeySchema>;
/** A created or rotated key: the value (shown once) and the client configuration with it. */
export type CreatedKey = z.infer<typeof createdKeySchema>;
/** A key's usage: today, the last 30 days with a daily breakdown, its quota. */
export type KeyUsage = KeySummary;

/** A Group as the key forms offer it (read from /admin/groups). */
export interface GroupView {
  name: string;
  platform: string | null;
  rateMultiplier: number | null;
}

export type KeyAction = 'enable' | 'disable' | 'reset-quota';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  constructor(options: { status: number; code: string; message: string; field?: string }) {
    super(options.message);
    this.status = options.status;
    this.code = options.code;
    this.field = options.field;
  }
}

interface CallOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  csrfToken?: string;
}

function errorOf(status: number, body: unknown): ApiError {
  const error =
    typeof body === 'object' && body !== null && 'error' in body
      ? (body as { error: { code?: unknown; message?: unknown; field?: unknown } }).error
      : undefined;
  const message =
    typeof error?.message === 'string'
      ? error.message
      : `The console answered ${status} without an explanation.`;
  return new ApiError({
    status,
    code: typeof error?.code === 'string' ? error.code : 'HTTP_ERROR',
    message,
    ...(typeof error?.field === 'string' ? { field: error.field } : {}),
  });
}

export async function callApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.csrfToken !== undefined) headers['x-csrf-token'] = options.csrfToken;
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method: options.method ?? 'GET',
      headers,
      credentials: 'same-origin',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new ApiError({
      status: 0,
      code: 'NETWORK',
      message: 'The console cannot be reached. Check your connection and try again.',
    });
  }
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) throw errorOf(response.status, body);
  return body as T;
}

export const segment = encodeURIComponent;

export const consoleApi = {
  methods: () => callApi<AuthMethods>('/auth/methods'),
  me: () => callApi<Me>('/me'),
  signIn: (input: { username: string; password: string }) =>
    callApi<Me>('/session', { method: 'POST', body: input }),
  signOut: (csrfToken: string) => callApi<unknown>('/session', { method: 'DELETE', csrfToken }),
  accounts: () => callApi<{ items: AccountView[] }>('/accounts'),
  keys: (namespace: string) =>
    callApi<{ items: KeyView[] }>(`/accounts/${segment(namespace)}/keys`),
  createKey: (input: { namespace: string; body: CreateKeyBody; csrfToken: string }) =>
    callApi<CreatedKey>(`/accounts/${segment(input.namespace)}/keys`, {
      method: 'POST',
      body: input.body,
      csrfToken: input.csrfToken,
    }),
  key: (ref: { namespace: string; name: string }) =>
    callApi<KeyView>(`/accounts/${segment(ref.namespace)}/keys/${segment(ref.name)}`),
  editKey: (input: { namespace: string; name: string; body: EditKeyBody; csrfToken: string }) =>
    callApi<KeyView>(`/accounts/${segment(input.namespace)}/keys/${segment(input.name)}`, {
      method: 'PATCH',
      body: input.body,
      csrfToken: input.csrfToken,
    }),
  keyAction: (input: { namespace: string; name: string; action: KeyAction; csrfToken: string }) =>
    callApi<KeyView>(
      `/accounts/${segment(input.namespace)}/keys/${segment(input.name)}/${input.action}`,
      { method: 'POST', body: {}, csrfToken: input.csrfToken },
    ),
  rotateKey: (input: { namespace: string; name: string; csrfToken: string }) =>
    callApi<CreatedKey>(
      `/accounts/${segment(input.namespace)}/keys/${segment(input.name)}/rotate`,
      { method: 'POST', body: {}, csrfToken: input.csrfToken },
    ),
  deleteKey: (input: { namespace: string; name: string; csrfToken: string }) =>
    callApi<unknown>(`/accounts/${segment(input.namespace)}/keys/${segment(input.name)}`, {
      method: 'DELETE',
      csrfToken: input.csrfToken,
    }),
  clientConfig: (ref: { namespace: string; name: string }) =>
    callApi<ClientConfig>(
      `/accounts/${segment(ref.namespace)}/keys/${segment(ref.name)}/client-config`,
    ),
  keyUsage: (ref: { namespace: string; name: string }) =>
    callApi<KeyUsage>(
      `/accounts/${segment(ref.namespace)}/keys/${segment(ref.name)}/usage?days=30`,
    ),
  groups: async (): Promise<GroupView[]> => {
    const list = await callApi<z.output<typeof adminListSchema>>('/admin/groups');
    return list.items.map((item) => ({
      name: item.name,
      platform: typeof item.spec.platform === 'string' ? item.spec.platform : null,
      rateMultiplier:
        typeof item.spec.rateMultiplier === 'number' ? item.spec.rateMultiplier : null,
    }));
  },
};
