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

async function readLimited(body: AsyncIterable<unknown> & { destroy(): unknown }) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxReplyBytes) {
      body.destroy();
      throw authFailed('(the token endpoint reply is too large)');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function postTokenForm(
  url: string,
  form: { fields: Record<string, string>; timeoutMs: number },
): Promise<IssuedToken> {
  const { timeoutMs } = form;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form.fields).toString(),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      // Token requests are rare: do not keep a pooled connection open for them.
      reset: true,
    });
  } catch (error) {
    throw authFailed('(the token endpoint could not be reached)', error);
  }
  const text = await readLimited(response.body);
  if (response.statusCode !== 200) {
    throw authFailed(`(the token endpoint answered ${String(response.statusCode)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw authFailed('(the token endpoint reply is not JSON)', error);
  }
  const parsed = tokenReplySchema.safeParse(json);
  if (!parsed.success) throw authFailed('(the token endpoint reply has no access_token)');
  return {
    accessToken: parsed.data.access_token,
    expiresInSeconds: parsed.data.expires_in ?? 3600,
  };
}
