/**
 * One OAuth 2 token request (RFC 6749 section 4: a form POST answered with `access_token` and
 * `expires_in`), shared by the token sources of upstreams: Google OAuth refresh, Entra ID client
 * credentials, JWT bearer grants. Any failure is a 502 `TG_UPSTREAM_AUTH_FAILED` naming what went
 * wrong, never a token or a secret.
 */
import { request } from 'undici';
import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';

export interface IssuedToken {
  accessToken: string;
  /** Lifetime in seconds; 3600 when the reply does not say. */
  expiresInSeconds: number;
}

const tokenReplySchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().nonnegative().optional(),
});

/** Largest token reply read. */
const maxReplyBytes = 64 * 1024;

export function authFailed(detail: string, cause?: unknown): GatewayError {
  return new GatewayError('TG_UPSTREAM_AUTH_FAILED', { detail, cause });
}

async function readLimited(
  body: AsyncIterable<unknown> & { destroy(): unknown },
  what: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxReplyBytes) {
      body.destroy();
      throw authFailed(`(the ${what} reply is too large)`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface TokenRequest {
  url: string;
  /** Named in errors: "token endpoint", "metadata server". */
  what: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * One request answered with `{access_token, expires_in}`: a token endpoint's form POST, or a
 * metadata server's GET. Token requests are rare, so no pooled connection is kept for them.
 */
export async function requestIssuedToken(options: TokenRequest): Promise<IssuedToken> {
  const { what, timeoutMs } = options;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(options.url, {
      method: options.method,
      headers: { accept: 'application/json', ...options.headers },
      body: options.body ?? null,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      reset: true,
    });
  } catch (error) {
    throw authFailed(`(the ${what} could not be reached)`, error);
  }
  const text = await readLimited(response.body, what);
  if (response.statusCode !== 200) {
    throw authFailed(`(the ${what} answered ${String(response.statusCode)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw authFailed(`(the ${what} reply is not JSON)`, error);
  }
  const parsed = tokenReplySchema.safeParse(json);
  if (!parsed.success) throw authFailed(`(the ${what} reply has no access_token)`);
  return {
    accessToken: parsed.data.access_token,
    expiresInSeconds: parsed.data.expires_in ?? 3600,
  };
}

/** A form POST to a token endpoint (RFC 6749 section 4). */
export function postTokenForm(
  url: string,
  form: { fields: Record<string, string>; timeoutMs: number },
): Promise<IssuedToken> {
  return requestIssuedToken({
    url,
    what: 'token endpoint',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form.fields).toString(),
    timeoutMs: form.timeoutMs,
  });
}
