/** The session cookie: parse the Cookie header, and write or clear the session id. */
export const SESSION_COOKIE = 'tollgate_console_session';
export const OIDC_COOKIE = 'tollgate_console_oidc';

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined;
  }
  return undefined;
}

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 clears the cookie. */
  maxAge: number;
}

/** HttpOnly, SameSite=Lax, Path=/; Secure when served over TLS or configured. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${options.maxAge}`,
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
